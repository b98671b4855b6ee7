import { defineErrors } from '../../lib/error-catalog.js';

/**
 * Every code a smart-home tool refuses with: its status and what it means. Tools raise them with toolError(); a
 * device command answers them per endpoint too (`results[].code`) when other devices took the command.
 */
export const SMART_HOME_ERRORS = defineErrors({
  user_not_found: { status: 404, meaning: 'No user has that id: ask the user for their user id.' },
  home_not_found: { status: 404, meaning: "No home has that id: get_user_inventory gives the user's home." },
  endpoint_not_found: { status: 404, meaning: "No device has that endpoint (the detail suggests near ones): get_user_inventory lists a home's endpoints." },
  group_not_found: { status: 404, meaning: "No room or group has that id: get_user_inventory lists a home's rooms and groups." },
  media_not_found: { status: 404, meaning: "No media item has that id (ids are typed, e.g. 'song:…'): search_media finds them." },
  alarm_not_found: { status: 404, meaning: 'No alarm has that id: get_alarms lists the alarms.' },
  channel_not_found: { status: 404, meaning: 'No channel with that number or name in the lineup (the detail lists it): pick one of the lineup.' },
  not_authorized: { status: 403, meaning: "The user may not act on that device: it is not in their home, or they are not on the lock's access list." },
  device_off: { status: 409, meaning: 'The device is off: turn it on with power_on, then repeat the command.' },
  device_offline: { status: 409, meaning: 'The device does not answer (last_seen_at says since when): the command cannot reach it; tell the user.' },
  lock_jammed: { status: 409, meaning: 'The lock is jammed: it cannot be moved remotely until someone frees it by hand.' },
  door_ajar: { status: 409, meaning: "The lock's door is open: it cannot lock until the door is closed." },
  obstructed: { status: 409, meaning: "The door's obstruction sensor is blocked: it will not close until the doorway is cleared." },
  thermostat_off: { status: 409, meaning: "The thermostat's mode is 'off' and holds no setpoint: set a mode with mode_set first." },
  not_playing: { status: 409, meaning: 'Nothing is playing on the device: only what plays can be paused.' },
  not_paused: { status: 409, meaning: 'The playback is not paused: only paused playback resumes; start something with play.' },
  nothing_playing: { status: 409, meaning: 'The device has nothing playing or paused: start something with play.' },
  end_of_queue: { status: 409, meaning: 'The playback is at the last item of its queue: there is no next item.' },
  too_many_alarms: { status: 409, meaning: 'The device holds as many alarms as it can: delete one with delete_alarm first.' },
  capability_unsupported: { status: 422, meaning: 'The device lacks what the command needs (e.g. colour on a white bulb): use a device that has it.' },
  media_unsupported: {
    status: 422,
    meaning: 'The device cannot play that item (video on a speaker), or the item has nothing to play: play it on a TV or pick another.',
  },
  out_of_range: { status: 422, meaning: 'The value is outside what the device takes (min, max and unit say the range): give one within it.' },
  unknown_color: { status: 422, meaning: "The colour is neither a hex code '#RRGGBB' nor one of the names the detail lists." },
  time_in_past: { status: 422, meaning: "A one-off alarm's time must be in the future at the home: give a later time." },
  recurrence_mismatch: { status: 422, meaning: "The alarm's first date is not a day its recurrence rings on: give a date that is." },
  mixed_homes: { status: 422, meaning: 'The endpoints belong to different homes: ask for the devices of one home at a time.' },
  invalid_date_range: { status: 422, meaning: 'start_date is after end_date: swap or correct them.' },
  date_out_of_range: {
    status: 422,
    meaning: 'The dates are in the future or before the energy history begins (the detail gives the bounds): stay within them.',
  },
});
