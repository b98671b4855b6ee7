import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import t from 'tap';
import { ensureChromium } from '../helpers/chromium.js';
import { startServer } from '../helpers/server.js';
import { EMAIL, ORDER, rightAnswer, SEED } from '../helpers/openenv.js';
import { WIDE_SESSION } from '../helpers/wide-session.js';
import { renderPage } from '../../server/http/view/page.js';

// The session page in headless Chromium: what a person sees of a scored task session, with no script,
// no console error and no request beyond this machine.

const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
const REPORTS = fileURLToPath(new URL('../../reports/', import.meta.url));

/** The page's own function, for the checks that run in it (the project compiles without the DOM library). */
declare const getComputedStyle: (element: unknown) => { backgroundColor: string };

t.test('a scored task session, as Chromium shows it', async (t) => {
  const executablePath = ensureChromium();
  const server = await startServer(t);
  const id = await server.newSession({ id: 'view.browser', task: 'retail/001', seed: SEED, kinds: ['transient_failure'] });
  await server.call('retail', 'find_user_id_by_email', { email: EMAIL }, id);
  for (let i = 0; i < 3; i++) await server.call('retail', 'get_order_details', { order_id: ORDER }, id);
  const cancelled = (await server.call('retail', 'cancel_pending_order', { order_id: ORDER, reason: 'no longer needed' }, id)).body;
  const { answer } = rightAnswer(cancelled);
  const message = `Order ${ORDER} is cancelled. <script>document.title = "owned"</script>`;
  t.equal((await server.call('retail', 'submit_answer', { ...answer, message }, id)).status, 200);

  const profile = await mkdtemp(join(tmpdir(), 'wildtools-chromium-'));
  const context = await chromium.launchPersistentContext(profile, { executablePath, headless: true, args: ARGS, viewport: { width: 1280, height: 900 } });
  t.teardown(async () => {
    await context.close();
    await rm(profile, { recursive: true, force: true });
  });
  const requests: string[] = [];
  const errors: string[] = [];
  context.on('request', (request) => requests.push(request.url()));
  const page = context.pages()[0] ?? (await context.newPage());
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(error.message));

  const response = await page.goto(`${server.origin}/sessions/${id}/view`, { waitUntil: 'load' });
  t.equal(response?.status(), 200);
  t.equal(await page.title(), `Session ${id} · retail/001`, 'the script in the answer did not run');
  t.equal(await page.locator('script').count(), 0, 'no script element');

  t.equal(await page.locator('#score .verdict').innerText(), '✔ Success');
  t.match(await page.locator('header').innerText(), /retail\/001 Cancel a pending order/);

  const badges = page.locator('#timeline [data-hazard="transient_failure"]');
  t.equal(await badges.count(), 2, 'two calls carry the hazard badge');
  for (const seq of [2, 3]) {
    const badge = page.locator(`#timeline tr[data-seq="${seq}"] [data-hazard="transient_failure"]`);
    t.equal(await badge.innerText(), 'transient_failure', `#${seq}: the badge`);
    t.match(await badge.getAttribute('title'), /^retry the same call/, `#${seq}: its recovery as a tooltip`);
  }
  t.equal(await page.locator('#timeline tr[data-seq="4"] [data-recovered="transient_failure"]').innerText(), 'recovered from transient_failure');
  t.equal(await page.locator('#timeline [data-recovered]').count(), 1, 'one recovering call');

  const background = (seq: number) => page.locator(`#timeline tr[data-seq="${seq}"]`).evaluate((row) => getComputedStyle(row).backgroundColor);
  t.not(await background(2), await background(1), 'a failed call looks different from a good one');

  const diffRow = await page.locator(`#diff tr[data-record="orders/${ORDER}"]`).innerText();
  t.match(diffRow, new RegExp(`retail\\s+orders\\s+${ORDER}\\s+update`));
  t.match(diffRow, /status: "pending" → "cancelled"/);
  t.match(await page.locator('#answers').innerText(), /is cancelled\. <script>document\.title = "owned"<\/script>/, 'the markup of the answer reads as text');

  await mkdir(REPORTS, { recursive: true });
  await page.screenshot({ path: join(REPORTS, 'session-view.png'), fullPage: true });

  t.same(errors, [], 'no console error');
  t.ok(requests.length > 0, `${requests.length} request(s) seen`);
  const away = requests.filter((url) => new URL(url).hostname !== '127.0.0.1');
  t.same(away, [], 'no request left loopback');
});

/** The page's widths as Chromium lays it out: what it scrolls to, what the window shows. */
const WIDTHS = '({ scroll: document.documentElement.scrollWidth, window: document.documentElement.clientWidth })';

t.test('the session page fits 1,366 and 800 px wide windows, a trap badge and long values included', async (t) => {
  const executablePath = ensureChromium();
  const server = await startServer(t);
  const id = await server.newSession({ id: 'view.widths', task: 'retail/001', seed: SEED, kinds: ['transient_failure'] });
  await server.call('retail', 'find_user_id_by_email', { email: EMAIL }, id);
  for (let i = 0; i < 3; i++) await server.call('retail', 'get_order_details', { order_id: ORDER }, id);
  await server.call('retail', 'cancel_pending_order', { order_id: ORDER, reason: 'no longer needed' }, id);

  const browser = await chromium.launch({ executablePath, headless: true, args: ARGS });
  t.teardown(() => browser.close());
  await mkdir(REPORTS, { recursive: true });
  for (const width of [1366, 800]) {
    const page = await browser.newPage({ viewport: { width, height: 800 } });
    await page.setContent(renderPage(WIDE_SESSION), { waitUntil: 'load' });
    t.equal(await page.locator('.badge.trap').count(), 1, `${width} px: a trap badge is on the page`);
    const wide = (await page.evaluate(WIDTHS)) as { scroll: number; window: number };
    t.comment(`the widest session page in a ${width} px window: ${wide.scroll} px wide (window ${wide.window} px)`);
    t.ok(wide.scroll <= width, `${width} px: the widest page scrolls to ${wide.scroll} px, no wider than the window`);
    await page.screenshot({ path: join(REPORTS, `session-view-${width}.png`), fullPage: true });

    await page.goto(`${server.origin}/sessions/${id}/view`, { waitUntil: 'load' });
    const served = (await page.evaluate(WIDTHS)) as { scroll: number; window: number };
    t.ok(served.scroll <= width, `${width} px: a served page scrolls to ${served.scroll} px, no wider than the window`);
    await page.close();
  }
});

t.test('a live session page reloads itself in Chromium', async (t) => {
  const executablePath = ensureChromium();
  const server = await startServer(t);
  await server.call('retail', 'list_all_product_types', {}, 'view.live');
  const browser = await chromium.launch({ executablePath, headless: true, args: ARGS });
  t.teardown(() => browser.close());
  const page = await browser.newPage();
  let loads = 0;
  page.on('load', () => loads++);
  await page.goto(`${server.origin}/sessions/view.live/view`, { waitUntil: 'load' });
  await server.call('retail', 'list_all_product_types', {}, 'view.live');
  await page.waitForEvent('load', { timeout: 15_000 });
  t.ok(loads >= 2, `loaded ${loads} times: the meta refresh works under the page's policy`);
  t.match(await page.locator('header').innerText(), /calls\s+2/, 'the reloaded page shows the new call');
});
