import { ProxyConfigError } from '../../server/proxy/config.js';
import type { Command } from '../command.js';
import { type Survey, surveyMock } from '../mock-survey.js';
import { renderTable } from '../table.js';

export const mockCheck: Command = {
  name: 'mock-check',
  summary:
    "Show what the mock makes of an OpenAPI document: each operation's resource and action as inferred, then each operation called once in one " +
    'session (creates first, each read back); exit 1 when an operation answers a 5xx or a created record is not found.',
  arguments: ['openapi'],
  options: [
    { name: 'seed-file', value: 'FILE', description: "the mock's initial records (mock.seed_file): resource -> array of records, JSON or YAML" },
    { name: 'seed', value: 'S', description: "the session's seed, which draws the generated values (default 0)" },
    { name: 'json', description: 'print roles, calls and summary as one JSON object' },
  ],
  async run(values, positionals, io) {
    let survey: Survey;
    try {
      survey = await surveyMock(positionals[0]!, values['seed-file'] as string | undefined, (values['seed'] as string | undefined) ?? '0');
    } catch (error) {
      if (!(error instanceof ProxyConfigError)) throw error;
      io.err(`wildtools ${error.message}\n`);
      return 1;
    }
    io.out(values['json'] === true ? `${JSON.stringify(survey, null, 2)}\n` : renderSurvey(survey));
    return survey.summary.ok ? 0 : 1;
  },
};

function renderSurvey({ roles, calls, summary }: Survey): string {
  const roleRows = roles.map(({ name, method, path, role }) => [
    name,
    method,
    path,
    role.action === 'none' ? '-' : role.resource,
    role.action,
    role.idParam ?? '-',
    role.parents.map((parent) => `${parent.resource}.${parent.param}`).join(', ') || '-',
  ]);
  const callRows = calls.map((call) => [call.operation, call.request, String(call.status), call.note]);
  const statuses = Object.entries(summary.statuses)
    .map(([status, count]) => `${status} x${count}`)
    .join(', ');
  const lines = [
    `What the mock infers (${summary.operations} operations):`,
    renderTable([['operation', 'method', 'path', 'resource', 'action', 'id', 'parents'], ...roleRows]),
    '',
    `Each operation called once (${calls.length} calls):`,
    renderTable([['operation', 'request', 'status', 'note'], ...callRows]),
    '',
    `Statuses: ${statuses || 'none'}. Creates read back: ${summary.roundTrips.ok.length}/${summary.roundTrips.ok.length + summary.roundTrips.failed.length}.`,
  ];
  if (summary.serverErrors.length > 0) lines.push(`5xx answers: ${summary.serverErrors.join(', ')}`);
  if (summary.roundTrips.failed.length > 0) lines.push(`Not found after create: ${summary.roundTrips.failed.join(', ')}`);
  lines.push(summary.ok ? 'ok' : 'FAILED');
  return `${lines.join('\n').replace(/ +$/gm, '')}\n`;
}
