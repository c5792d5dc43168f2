// The playwright-core side of benchcmp (see ../main.go).
//
// Setup, once, in this folder (the npm registry is enough; no browser is
// downloaded: playwright-core ships none and this script never asks for
// one):
//
//	npm install
//
// The Go program starts "node flow.mjs <cdp-http-endpoint>" and talks to
// it in JSON lines: one request on stdin, one answer on stdout. The script
// connects over CDP to the Chromium process the Go sides use, so all three
// sides drive the same browser. Every request gets a fresh browser context
// (and page), closed after the answer's clock stops, as the Go sides do.
//
//	{"op":"flow","base":"http://127.0.0.1:P","username":..,"password":..,"member_id":..}
//	  -> {"ms":123.4,"savings":"..."}        the teller flow, written as a
//	     Playwright user would: getByRole/getByLabel/getByTestId with
//	     Playwright's own auto-waiting, waitForURL where the capability
//	     checks the URL.
//	{"op":"lookup","url":"...","by":"role","role":"button","name":"Target button","exact":true}
//	{"op":"lookup","url":"...","by":"label","name":"Field 1999","exact":true}
//	  -> {"ms":12.3,"count":1,"nav_ms":456.7,"render_ms":78.9} the first
//	     getByRole (or getByLabel) lookup on a freshly loaded document,
//	     resolved to element handles as Vera's Find resolves to elements;
//	     the navigation (to the load event) and one evaluate after it (the
//	     wait for the browser's first render) are timed apart.
//	{"op":"batch","base":..,"username":..,"password":..,"member_ids":[..],"concurrency":4}
//	  -> {"wall_ms":987.6,"flows":[{"ms":..,"name":..,"savings":..,"checking":..},..]}
//	     (a flow that failed is {"error":"..."} in its place)
//	     the flow for every member, concurrency at a time (async workers
//	     in this one process), in member order (benchcmp -concurrency).
//	{"op":"quit"}
//
// An error is answered as {"error":"..."}.
import { createInterface } from 'node:readline';
import { chromium } from 'playwright-core';

const endpoint = process.argv[2];
if (!endpoint) {
  console.error('usage: node flow.mjs <cdp-http-endpoint>');
  process.exit(2);
}

const browser = await chromium.connectOverCDP(endpoint);

// steps, with BENCHCMP_PW_STEPS=1 in the environment, writes each flow's
// step times (ms since the previous step) to stderr.
const steps = process.env.BENCHCMP_PW_STEPS === '1';

async function flow(req) {
  const start = performance.now();
  let last = start;
  const marks = [];
  const mark = (name) => {
    if (!steps) return;
    const now = performance.now();
    marks.push(name + ' ' + (now - last).toFixed(1));
    last = now;
  };
  const context = await browser.newContext();
  mark('newContext');
  try {
    const page = await context.newPage();
    mark('newPage');
    await page.goto(req.base + '/login');
    mark('goto');
    await page.getByRole('textbox', { name: 'Username', exact: true }).fill(req.username);
    await page.getByLabel('Password', { exact: true }).fill(req.password);
    mark('fill x2');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    mark('click sign-in');
    await page.waitForURL(u => u.pathname === '/members');
    mark('waitForURL members');
    await page.getByLabel('Member ID', { exact: true }).fill(req.member_id);
    mark('fill member');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    mark('click search');
    await page.waitForURL(u => u.pathname.includes('/members/' + req.member_id));
    mark('waitForURL member');
    await page.getByRole('heading', { name: 'Accounts', exact: true }).waitFor();
    mark('heading');
    const main = page.getByRole('main');
    const name = (await main.getByTestId('member-name').textContent()).trim();
    const savings = (await main.getByTestId('balance-savings').textContent()).trim();
    const checking = (await main.getByTestId('balance-checking').textContent()).trim();
    mark('read x3');
    const ms = performance.now() - start;
    if (steps) console.error('pw flow: ' + marks.join(', ') + ' total ' + ms.toFixed(1));
    if (!name || !checking) throw new Error('empty member name or checking balance');
    return { ms, savings, name, checking };
  } finally {
    await context.close();
  }
}

// batch runs req.member_ids.length flows, req.concurrency at a time
// (async workers taking the next member), and answers the wall time and
// each flow's own answer and time, in member order.
async function batch(req) {
  const ids = req.member_ids;
  const flows = new Array(ids.length);
  let next = 0;
  const start = performance.now();
  async function worker() {
    while (next < ids.length) {
      const i = next++;
      try {
        flows[i] = await flow({ ...req, member_id: ids[i] });
      } catch (e) {
        flows[i] = { error: String(e && e.message || e) };
      }
    }
  }
  await Promise.all(Array.from({ length: req.concurrency }, worker));
  return { wall_ms: performance.now() - start, flows };
}

async function lookup(req) {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    const t0 = performance.now();
    await page.goto(req.url);
    const t1 = performance.now();
    // One trip through the page's main thread, as Vera's barrier makes
    // after a navigation: it waits for the browser's first render of the
    // document, which the lookup would otherwise wait for.
    await page.evaluate('1');
    const t2 = performance.now();
    const loc = req.by === 'label'
      ? page.getByLabel(req.name, { exact: !!req.exact })
      : page.getByRole(req.role, { name: req.name, exact: !!req.exact });
    const handles = await loc.elementHandles();
    const ms = performance.now() - t2;
    return { ms, count: handles.length, nav_ms: t1 - t0, render_ms: t2 - t1 };
  } finally {
    await context.close();
  }
}

const lines = createInterface({ input: process.stdin });
for await (const line of lines) {
  if (!line.trim()) continue;
  let answer;
  try {
    const req = JSON.parse(line);
    if (req.op === 'quit') break;
    if (req.op === 'flow') answer = await flow(req);
    else if (req.op === 'lookup') answer = await lookup(req);
    else if (req.op === 'batch') answer = await batch(req);
    else answer = { error: 'unknown op ' + req.op };
  } catch (e) {
    answer = { error: String(e && e.message || e) };
  }
  process.stdout.write(JSON.stringify(answer) + '\n');
}
// Disconnect only: the browser belongs to the Go program.
await browser.close();
