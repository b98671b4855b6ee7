import { z } from 'zod';
import { type ToolError, toolError } from '../errors.js';
import { SMART_HOME_ERRORS } from './errors.js';
import type { ToolContext } from '../tool.js';
import { CommandOutput, runCommand } from './commands.js';
import { requireCapability } from './control.js';
import { label, poweredOff, type SmartHomeDb } from './db.js';
import type { Device, Media, Playback } from './schema.js';

// Media playback on speakers and TVs: what a media id plays (its queue), and the state machine of the
// transport commands. play loads a queue and plays it; pause needs it playing, resume needs it paused,
// stop and next need it playing or paused, next needs an item after the current one.
//
//   (nothing) --play--> playing --pause--> paused --resume--> playing
//   playing|paused --next--> playing (the next item)      playing|paused --stop--> stopped

export const VIDEO_TYPES: readonly Media['type'][] = ['movie', 'show', 'episode'];

/** The playable items a media id plays, in order: a collection's items, or the item itself. */
export const queueOf = (media: Media): string[] => (['song', 'movie', 'episode'].includes(media.type) ? [media.media_id] : [...media.items]);

export const mediaUnsupported = (device: Device, media: Media): ToolError =>
  toolError(
    SMART_HOME_ERRORS.media_unsupported,
    `${label(device)} is a ${device.type} and cannot play video (${media.media_id} is a ${media.type}): play it on a TV.`,
  );

/** What a device holds, for the messages: "nothing is loaded" or "its playback is paused". */
const holding = (playback: Playback | null | undefined) => (playback ? `its playback is ${playback.status}` : 'nothing is loaded');

const NowPlaying = z.object({
  endpoint: z.string(),
  status: z.enum(['playing', 'paused', 'stopped']),
  media_id: z.string().describe('The current item of the queue (a song, a movie or an episode).'),
  title: z.string(),
  artist: z.string().nullable(),
  queue_position: z.number().int().describe('Its place in the queue, from 1.'),
  queue_length: z.number().int(),
});

export const PlaybackOutput = CommandOutput.extend({
  now_playing: z
    .array(NowPlaying)
    .describe('For each device that took the command: the current item of its queue and the playback status. Devices that failed are not listed.'),
});
export type PlaybackOutput = z.infer<typeof PlaybackOutput>;

/** A command's answer with what each device that took it now holds. */
export function withNowPlaying(db: SmartHomeDb, output: CommandOutput): PlaybackOutput {
  const now_playing = output.results.flatMap(({ endpoint, status, state }) => {
    const playback = state?.playback;
    if (status !== 'ok' || !playback) return [];
    const media_id = playback.queue[playback.index] ?? playback.media_id;
    const item = db.media.get(media_id);
    return [
      {
        endpoint,
        status: playback.status,
        media_id,
        title: item?.title ?? media_id,
        artist: item?.artist ?? null,
        queue_position: playback.index + 1,
        queue_length: playback.queue.length,
      },
    ];
  });
  return { ...output, now_playing };
}

/** A transport command: the new playback of a device from its current one, or a ToolError. */
type Step = (device: Device, playback: Playback | null | undefined) => Playback;

export const pauseStep: Step = (device, playback) => {
  if (playback?.status !== 'playing')
    throw toolError(SMART_HOME_ERRORS.not_playing, `${label(device)} is not playing (${holding(playback)}): there is nothing to pause.`);
  return { ...playback, status: 'paused' };
};

export const resumeStep: Step = (device, playback) => {
  if (playback?.status !== 'paused') {
    throw toolError(
      SMART_HOME_ERRORS.not_paused,
      `${label(device)} is not paused (${holding(playback)}): only paused playback resumes; start something with play.`,
    );
  }
  if (device.state.power !== 'on') throw poweredOff(device, 'resuming playback');
  return { ...playback, status: 'playing' };
};

/** stop and next act on something playing or paused. */
function loaded(device: Device, playback: Playback | null | undefined, what: string): Playback {
  if (playback?.status === 'playing' || playback?.status === 'paused') return playback;
  throw toolError(SMART_HOME_ERRORS.nothing_playing, `${label(device)} has nothing playing or paused (${holding(playback)}): ${what}`);
}

export const stopStep: Step = (device, playback) => ({ ...loaded(device, playback, 'there is nothing to stop.'), status: 'stopped' });

export const nextStep: Step = (device, playback) => {
  const current = loaded(device, playback, 'start something with play.');
  const length = current.queue.length;
  if (current.index + 1 >= length) {
    throw toolError(
      SMART_HOME_ERRORS.end_of_queue,
      `${label(device)} is at the last item of its queue (${current.index + 1} of ${length}): there is no next item.`,
    );
  }
  return { ...current, index: current.index + 1, status: 'playing' };
};

/** Runs a transport command over endpoints: each device needs the playback capability, then the step's rule. */
export const runPlayback = (db: SmartHomeDb, endpoints: readonly string[], ctx: ToolContext, step: Step): PlaybackOutput =>
  withNowPlaying(
    db,
    runCommand(db, endpoints, ctx, (device) => {
      requireCapability(device, 'playback', 'media playback');
      return { playback: step(device, device.state.playback) };
    }),
  );

/** What every playback tool's description says of how it reports. */
export const PER_ENDPOINT =
  'Takes several endpoints at once and reports per endpoint (status ok, or failed with its code: device_offline, ' +
  'capability_unsupported for a device that cannot play media, or the rule it broke); read every result. When every ' +
  'device fails, the call is refused as a whole with the first error (and `errors` per endpoint) and nothing changes.';
