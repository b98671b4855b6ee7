import { type Command, UsageError } from '../command.js';
import { renderJournal } from '../journal-render.js';
import { clientFor, remoteOptions } from '../remote.js';

export const journal: Command = {
  name: 'journal',
  summary: "Print a session's calls as a timeline, from a running server: status, outcome, hazards injected and traps fallen into (marked !), records changed.",
  arguments: ['session'],
  options: [...remoteOptions, { name: 'since', value: 'N', description: 'only the calls after sequence number N' }],
  async run(values, [session], io) {
    const sinceText = values['since'] as string | undefined;
    if (sinceText !== undefined && !/^\d+$/.test(sinceText)) throw new UsageError(`--since ${sinceText}: expected a sequence number`);
    const since = sinceText === undefined ? undefined : Number(sinceText);
    const client = clientFor(values, io.env);
    try {
      const entries = await client.sessions.journal(session, since);
      io.out(renderJournal(session!, entries));
      return 0;
    } finally {
      await client.close();
    }
  },
};
