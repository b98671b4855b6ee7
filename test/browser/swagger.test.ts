import { chromium } from 'playwright-core';
import t from 'tap';
import { ensureChromium } from '../helpers/chromium.js';
import { startServer } from '../helpers/server.js';

// Swagger UI in headless Chromium: "Try it out" starts from the documented example, and the first Execute succeeds.

const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update'];

t.test("a newcomer's first Execute in Swagger UI succeeds", async (t) => {
  const executablePath = ensureChromium();
  const server = await startServer(t);
  const browser = await chromium.launch({ executablePath, headless: true, args: ARGS });
  t.teardown(() => browser.close());
  const page = await browser.newPage({ viewport: { width: 1366, height: 900 } });
  await page.goto(`${server.origin}/docs`, { waitUntil: 'networkidle' });
  const exampleOf = async (url: string, path: string) =>
    (await server.request('GET', url)).body.paths[path].post.requestBody.content['application/json'].example as unknown;
  const cases = [
    {
      document: 'retail',
      operation: 'operations-retail-cancel_pending_order',
      example: await exampleOf('/retail/openapi.json', '/retail/tools/cancel_pending_order'),
      status: '200',
    },
    {
      document: 'all domains and sessions',
      operation: 'operations-sessions-create_session',
      example: await exampleOf('/openapi.json', '/sessions'),
      status: '201',
    },
  ];
  for (const { document, operation, example, status } of cases) {
    await page.selectOption('select#select', { label: document });
    const block = page.locator(`#${operation}`);
    await block.locator('.opblock-summary').click();
    await block.locator('button.try-out__btn').click();
    const body = await block.locator('textarea.body-param__text').inputValue();
    t.same(JSON.parse(body), example, `${operation}: the body starts from the documented example`);
    t.ok(example !== undefined, `${operation}: documents an example`);
    await block.locator('button.execute').click();
    const answered = block.locator('.live-responses-table tbody .response-col_status').first();
    await answered.waitFor({ timeout: 15_000 });
    t.equal(await answered.innerText(), status, `${operation}: the first Execute answers ${status}`);
  }
});
