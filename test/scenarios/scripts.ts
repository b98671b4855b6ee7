import { type Call, literal, careful } from '../../agents/calls.js';
import type { Obj, Probe, ProbeClient } from './harness.js';

export * from '../../agents/calls.js';

// What only the probes share (the call primitives are the scripted agents', in agents/calls.ts).

/** A probe whose task both agents script alike: only how they call differs (once and literally, or carefully). */
export const sameTask = (kind: string, tool: string, task: (c: ProbeClient, call: Call) => Promise<unknown>): Probe => ({
  kind,
  tool,
  naive: (c) => task(c, literal),
  recover: (c) => task(c, careful),
});

/** A probe whose task is one call, its answer read by `read`. */
export const oneCall = (kind: string, tool: string, args: () => Obj, read: (answer: any) => unknown = (answer) => answer): Probe =>
  sameTask(kind, tool, async (c, call) => read(await call(c, tool, args())));
