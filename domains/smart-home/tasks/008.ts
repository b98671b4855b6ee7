import { z } from 'zod';
import { field } from '../../../lib/answer-fields.js';
import { addDays } from '../../../lib/time.js';
import { WEEKDAYS } from '../alarm-time.js';
import { MAX_ALARMS_PER_DEVICE } from '../tools/create_alarm.js';
import { smartHomeTask, smartHomeTurn } from './define.js';
import { devicesOf, namesFor, named, people, person, pickFrom, spoken } from './common.js';

// An alarm for tomorrow at the home (its date is the home's, not the session's), then every alarm of the person.

interface Given {
  name: string;
  user_id: string;
  speaker: string;
  time: string;
  label: string;
}

const LABELS = ['Gym', 'Work', 'Run', 'Yoga', 'Flight', 'School run', 'Swim'];

/** 6:30 as said. */
const said = (time: string) => `${Number(time.slice(0, 2))}:${time.slice(3)}`;

const AlarmEntry = z.strictObject({
  alarm_id: field.id('The alarm id.'),
  speaker: field.id('The endpoint id of the device it rings on.'),
  date: field.date('The day it rings next, at the home (YYYY-MM-DD).'),
  time: field.time('The time it rings, at the home (HH:MM).'),
  label: field.text("The alarm's label."),
});

export default smartHomeTask({
  id: 'smart-home/008',
  title: 'Set a wake-up alarm, then list the alarms',
  categories: ['multi-mission'],
  pick({ db, random }): Given {
    const alarmsOn = (endpoint: string) => [...db.alarms.values()].filter((alarm) => alarm.endpoint === endpoint).length;
    const candidates = people(db).flatMap(({ user, home }) => {
      const devices = devicesOf(db, home.home_id);
      return devices
        .filter((d) => d.type === 'speaker' && d.online && alarmsOn(d.endpoint) < MAX_ALARMS_PER_DEVICE)
        .flatMap((speaker) => namesFor(speaker, devices).map((name) => ({ user, name })));
    });
    const { user, name } = pickFrom(random, candidates, 'speaker that can ring an alarm');
    const time = `0${random.int(5, 8)}:${random.pick(['00', '15', '30', '45'])}`;
    return { ...person(user), speaker: spoken(name), time, label: random.pick(LABELS) };
  },
  request: (given) =>
    `Hi, I'm ${given.name} (user id ${given.user_id}). Please set an alarm for ${said(given.time)} tomorrow morning on ${given.speaker} and call ` +
    `it ${given.label}.`,
  answer: z.strictObject({
    alarm_id: field.id('The id of the alarm you set.'),
    speaker: field.id('The endpoint id of the device it rings on.'),
    date: field.date('The day it rings, at the home (YYYY-MM-DD).'),
    time: field.time('The time it rings, at the home (HH:MM).'),
    weekday: field.choice(WEEKDAYS, 'The day of the week it rings.'),
  }),
  solve(tools, given) {
    const { devices, home } = tools.get_user_inventory({ user_id: given.user_id });
    const { endpoint } = named(devices, given.speaker);
    const tomorrow = addDays(home.local_time.slice(0, 10), 1);
    const alarm = tools.create_alarm({ user_id: given.user_id, endpoint, time: `${tomorrow}T${given.time}`, label: given.label });
    return { alarm_id: alarm.alarm_id, speaker: alarm.endpoint, date: alarm.time.slice(0, 10), time: alarm.time.slice(11, 16), weekday: alarm.weekday };
  },
  follow_ups: [
    smartHomeTurn({
      request: () => 'Thanks! Which alarms do I have now?',
      answer: z.strictObject({ alarms: field.set(AlarmEntry, 'Every alarm the person set, on any device.') }),
      solve(tools, given: Given) {
        const { alarms } = tools.get_alarms({ user_id: given.user_id });
        return {
          alarms: alarms.map((a) => ({ alarm_id: a.alarm_id, speaker: a.endpoint, date: a.time.slice(0, 10), time: a.time.slice(11, 16), label: a.label })),
        };
      },
    }),
  ],
  targets: [
    {
      kind: 'unknown_outcome',
      tool: 'create_alarm',
      recovery: 'repeat create_alarm with the same idempotency_key: the alarm that was set is replayed, not set twice',
    },
  ],
  claims: ['alarm_id'],
});
