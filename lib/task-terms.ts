// The words tasks and their verdicts share (domains declare tasks, the scorer judges them; neither imports the other).

/** What kind of work a task asks for; every domain has tasks of each. */
export const TASK_CATEGORIES = ['single-step', 'multi-step', 'parallel', 'multi-mission', 'refusal', 'partial'] as const;
export type TaskCategory = (typeof TASK_CATEGORIES)[number];

/** A hazard scenario a task targets: switched on in its sessions unless chosen otherwise. */
export interface TaskTarget {
  readonly kind: string;
  readonly tool: string;
  /** What the task expects an agent to do when the hazard hits. */
  readonly recovery: string;
  /** Tools whose clean answer after a blocking hit shows the recovery (default: the hazarded tool itself). */
  readonly via?: readonly string[];
}

/** A call the agent must not make: any call of `tool`, or one whose arguments include all of `args`. */
export interface TaskForbidden {
  readonly tool: string;
  readonly args?: Readonly<Record<string, unknown>>;
  readonly why: string;
}
