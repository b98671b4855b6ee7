import { z } from 'zod';

// Argument schemas the smart-home tools share, described once.

export const MAX_ENDPOINTS = 25;

export const endpoint = z.string().min(1).max(100).describe("A device's endpoint id, exactly as get_user_inventory lists it, e.g. 'FloorLamp_12'.");

/** The devices a command targets: one call can command several; the answer reports per endpoint. */
export const endpoints = z
  .array(endpoint)
  .min(1)
  .max(MAX_ENDPOINTS)
  .superRefine((list, ctx) => {
    const seen = new Set<string>();
    list.forEach((value, i) => {
      if (seen.has(value)) ctx.addIssue({ code: 'custom', path: [i], message: `duplicate endpoint '${value}'` });
      seen.add(value);
    });
  })
  .describe(`The devices to command, by endpoint id (1 to ${MAX_ENDPOINTS}, no repeats). The answer has one result per endpoint.`);

export const userId = z.string().min(1).max(100).describe("The user's id, e.g. 'maya_okafor_4821'.");
export const mediaId = z
  .string()
  .min(1)
  .max(200)
  .describe("A typed media id as search_media returns it, e.g. 'song:…', 'album:…', 'playlist:…', 'movie:…', 'show:…'.");
export const alarmId = z.string().min(1).max(100).describe("An alarm's id as get_alarms lists it, e.g. 'alarm_0042'.");
