import { defineKind, type ScenarioBase } from '../kind.js';

declare module '../kind.js' {
  interface ScenarioTypes<Db, Tool> {
    ambiguous_doc: AmbiguousDocScenario;
  }
}

export interface AmbiguousDocScenario extends ScenarioBase<'ambiguous_doc'> {
  /** Phrases removed from the tool's and its parameters' descriptions (units, defaults, formats). */
  remove: readonly (string | RegExp)[];
}

// Every occurrence goes: a string phrase everywhere, a RegExp at each of its matches (global or not).
const everywhere = (phrase: string | RegExp) => (typeof phrase === 'string' ? phrase : phrase.global ? phrase : new RegExp(phrase.source, `${phrase.flags}g`));

const strip = (text: string, remove: readonly (string | RegExp)[]) =>
  remove
    .reduce<string>((out, phrase) => out.replaceAll(everywhere(phrase), ''), text)
    .replace(/\s{2,}/g, ' ')
    .replace(/\s+([.,)])/g, '$1')
    .trim();

/** Whether the text holds one of the phrases. */
const mentions = (text: string, remove: readonly (string | RegExp)[]) =>
  remove.some((phrase) => (typeof phrase === 'string' ? text.includes(phrase) : new RegExp(phrase.source, phrase.flags.replace('g', '')).test(text)));

/** The listing loses units and defaults; the tool still accepts the sensible default. */
export const ambiguousDoc = defineKind<AmbiguousDocScenario>({
  kind: 'ambiguous_doc',
  family: 'specification',
  scope: 'session',
  retryable: false,
  sees: 'a tool description without its units, defaults or formats',
  recovery: 'infer the sensible default (or omit the parameter) and check the result',
  needs: ['explicit_arguments'],
  hint: () => 'The documentation is incomplete here; the usual units and defaults apply.',
  before(call) {
    call.record({ removed: call.scenario.remove.map(String) });
  },
  contract(contract, state) {
    const input = structuredClone(contract.input) as { properties?: Record<string, { description?: string; default?: unknown }> };
    for (const field of Object.values(input.properties ?? {})) {
      // A parameter whose description says nothing removed is unrelated: it keeps its description and default.
      if (!field.description || !mentions(field.description, state.scenario.remove)) continue;
      field.description = strip(field.description, state.scenario.remove);
      // A parameter whose whole description went says nothing rather than an empty string.
      if (field.description === '') delete field.description;
      // The schema's default goes with the words that stated it.
      if (!/\bdefault\b/i.test(field.description ?? '')) delete field.default;
    }
    const description = strip(contract.description, state.scenario.remove) + (state.hints ? ` (${state.hint})` : '');
    return { ...contract, description, input: input as Record<string, unknown> };
  },
});
