import { isObject } from '../lib/object.js';
import type { CallContext, HazardSession } from './engine.js';
import type { HazardEvent } from './event.js';
import type { FollowUp } from './kind.js';
import { headerText } from '../lib/text.js';

/** An effect waiting for the calls it concerns. */
interface Pending {
  domain: string;
  effect: FollowUp;
  left: number;
  event: HazardEvent;
}

/** Effects hazards left on later calls (planted instructions, lagging replicas), per session; not kept across a restart. */
export class FollowUps {
  private readonly pending = new WeakMap<HazardSession, Pending[]>();

  /** `event`: what the journal records on each call the effect concerns (its call and tool are that call's). */
  add(context: CallContext, effect: FollowUp, event: HazardEvent): void {
    const list = this.pending.get(context.session) ?? [];
    list.push({ domain: context.domain, effect, left: effect.calls ?? Infinity, event });
    this.pending.set(context.session, list);
  }

  /** A successful call's answer, reshaped and journaled by the effects that match it; spent effects are dropped. */
  apply(context: CallContext, result: unknown, hints: boolean): unknown {
    const list = this.pending.get(context.session);
    if (!list) return result;
    let current = result;
    for (const follow of list) {
      const { effect } = follow;
      if (follow.domain !== context.domain || effect.tool !== context.tool.name || !effect.matches(isObject(context.args) ? context.args : {})) continue;
      if (effect.apply) current = effect.apply(current);
      context.events.push({ ...follow.event, tool: context.tool.name, call: context.call, ...effect.details });
      if (hints && follow.event.hint) context.headers['x-hint'] ??= headerText(follow.event.hint);
      follow.left -= 1;
    }
    if (list.some((follow) => follow.left <= 0))
      this.pending.set(
        context.session,
        list.filter((follow) => follow.left > 0),
      );
    return current;
  }
}
