/**
 * Webhooks through the browser (docs/events.md, "Webhooks"): an administrator creates an endpoint
 * on the Webhooks page and copies its secret, which the page shows once; a real receiver on
 * 127.0.0.1 (test/helpers/webhook-receiver.mjs) checks every delivery's signature with it. The
 * page shows each attempt as the server makes it: a delivered event, a 410 that disables the
 * endpoint (with its reason), the waiting event delivered after "Re-enable", a rotated secret
 * (both signatures for a day), a replay, and the endpoint deleted. A user without
 * webhooks:manage does not see the page in the navigation.
 *
 * The server allows private addresses and retries quickly (LEDGER_WEBHOOK_ALLOW_PRIVATE,
 * LEDGER_WEBHOOK_RETRY_DELAYS_MS): this file's server only. Screenshots of the list and of an
 * endpoint with attempts at 390, 1280 and 1440 px land in test-results/screenshots/webhooks/.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Received, Receiver } from '../helpers/webhook-receiver-process.js';
import { ADMIN, apiClient, expectCount, expectHidden, expectText, expectVisible, PHONE, seedBooks, useE2E } from './fixture.js';
import { DashboardPage } from './pages/dashboard-page.js';
import { SignInPage } from './pages/sign-in-page.js';
import { WebhookPage, WebhooksPage } from './pages/webhooks-page.js';

const e2e = useE2E({ env: { LEDGER_WEBHOOK_ALLOW_PRIVATE: 'true', LEDGER_WEBHOOK_RETRY_DELAYS_MS: '200,200' } });
const CLERK = { name: 'Carl Clerk', email: 'carl@example.com', password: 'posts-entries-only' };

let receiver: Receiver;
let call: <T>(method: string, path: string, body?: unknown) => Promise<T>;
let page: Page;
let endpointUrl = '';
let endpointId = '';
let secret = '';
let currencySeq = '';

interface EventView { seq: string; type: string }

/** The seq of the newest event of `type` in the change feed (the test's books hold a few dozen events). */
async function newestSeq(type: string): Promise<string> {
  const events = await call<EventView[]>('GET', `/api/v1/events?types=${type}&limit=1000`);
  const last = events.at(-1);
  if (!last) throw new Error(`no ${type} event in the feed`);
  return last.seq;
}

/** What the receiver got for event `seq`, in arrival order. */
async function receivedFor(seq: string): Promise<Received[]> {
  return (await receiver.received()).received.filter((delivery) => delivery.event.seq === seq);
}

let accountNumber = 5000;
/** A change through the API with the administrator's token: a new account, one `account.created` event. */
async function createAccount(currencyId: string): Promise<string> {
  accountNumber += 1;
  await call('POST', '/api/v1/accounts', {
    account_number: String(accountNumber), name: `Expense ${accountNumber}`, account_type: 'expense', normal_balance: 'debit', currency_id: currencyId,
  });
  return newestSeq('account.created');
}

let usdId = '';

describe('an administrator manages a webhook endpoint in the browser', { timeout: 90_000 }, () => {
  beforeAll(async () => {
    const books = await seedBooks(e2e.server);
    usdId = books.currencyId;
    const anonymous = await apiClient(e2e.server);
    const tokens = await anonymous.call<{ access_token: string }>('POST', '/auth/login', { email: ADMIN.email, password: ADMIN.password });
    call = (await apiClient(e2e.server, tokens.access_token)).call;
    await call('POST', '/api/v1/users', { ...CLERK, permissions: { 'journals:create': true } });
    receiver = await Receiver.start();
    endpointUrl = `${receiver.url}/ledger-events`;
    page = await e2e.newPage();
    await new SignInPage(page).goto().then((signIn) => signIn.signIn(ADMIN));
    await new DashboardPage(page).ready();
  }, 90_000);

  afterAll(() => {
    receiver?.stop();
  });

  it('creates an endpoint and shows its secret once, with a warning that it will not be shown again', async () => {
    const list = await new WebhooksPage(page).open();
    await expectVisible(page.getByText('No webhook endpoints yet'));
    await list.create({ url: endpointUrl, description: 'Accounting sync to the data warehouse' });
    await expectText(list.dialog, /you will not see it again/i);
    secret = await list.secret.read();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    await receiver.secrets([secret]);
    await e2e.screenshot(page, 'webhooks/secret-1280');
    await list.secret.done.click();

    // "I have stored the secret" leads to the endpoint's page; nothing there, or after a reload, shows the secret again.
    await expect.poll(() => new URL(page.url()).pathname, { timeout: 15_000 }).toMatch(/^\/webhooks\/[^/]+$/);
    endpointId = new URL(page.url()).pathname.split('/')[2]!;
    const detail = new WebhookPage(page, endpointId, endpointUrl);
    await detail.ready();
    await expectText(detail.types, 'All events');
    await page.reload();
    await detail.ready();
    await expectVisible(detail.settings);
    await expectCount(page.getByTestId('webhook-secret-value'), 0);
    expect(await page.content()).not.toContain(secret);
    const again = await list.goto();
    await expectVisible(again.row(endpointUrl));
    await expectText(again.row(endpointUrl), /Accounting sync to the data warehouse[\s\S]*All events[\s\S]*active/);
    expect(await page.content()).not.toContain(secret);
  });

  it('shows the delivery of an event as it happens, signed with that secret', async () => {
    await page.getByRole('link', { name: endpointUrl, exact: true }).click();
    const detail = new WebhookPage(page, endpointId, endpointUrl);
    await detail.ready();
    await expectVisible(page.getByText('No attempts yet'));
    await call('POST', '/api/v1/currencies', {
      code: 'EUR', name: 'Euro', symbol: '€', asset_scale: 2, asset_type: 'fiat', caip19_id: 'swift:0/iso4217:EUR',
    });
    currencySeq = await newestSeq('currency.created');
    // No reload: the page looks again by itself.
    await expectVisible(detail.delivered(currencySeq));
    await expectText(detail.delivered(currencySeq), /#\d+[\s\S]*1[\s\S]*delivered[\s\S]*200/);
    await expectText(detail.lastSeq, `#${currencySeq}`);
    const [delivery] = await receivedFor(currencySeq);
    expect(delivery).toMatchObject({ status: 200, valid_with: [0], event: { type: 'currency.created', data: { code: 'EUR' } } });
  });

  it('shows the endpoint disabled with its reason after a 410, and delivers the waiting event once re-enabled', async () => {
    const detail = new WebhookPage(page, endpointId, endpointUrl);
    await receiver.respond([410]);
    const goneSeq = await createAccount(usdId);
    await expectVisible(detail.disabledNotice);
    await expectText(detail.disabledReason, /410/);
    await expectText(detail.status, 'disabled');
    await expectVisible(detail.failed(goneSeq));
    await expectText(detail.failed(goneSeq), /failed[\s\S]*410/);
    await expectText(detail.lastSeq, `#${Number(goneSeq) - 1}`);

    // The list says so too.
    const list = await new WebhooksPage(page).open();
    await expectText(list.row(endpointUrl).getByTestId('webhook-status'), /disabled[\s\S]*410/);
    await page.getByRole('link', { name: endpointUrl, exact: true }).click();
    await detail.ready();

    await detail.enable.click();
    await expectVisible(detail.delivered(goneSeq));
    await expectHidden(detail.disabledNotice);
    await expectText(detail.status, 'active');
    const deliveries = await receivedFor(goneSeq);
    expect(deliveries.map((delivery) => [delivery.status, delivery.valid_with])).toEqual([[410, [0]], [200, [0]]]);
  });

  it('rotates the secret: the new one is shown once, and deliveries carry both signatures for a day', async () => {
    const detail = new WebhookPage(page, endpointId, endpointUrl);
    await detail.rotate.click();
    await expectText(detail.rotateDialog, /24 hours/);
    await detail.rotateConfirm.click();
    const rotated = await detail.secret.read();
    expect(rotated).toMatch(/^whsec_/);
    expect(rotated).not.toBe(secret);
    await expectText(detail.rotateDialog, /you will not see it again[\s\S]*old secret keeps signing beside the new one for 24 hours/i);
    await receiver.secrets([secret, rotated]);
    await detail.secret.done.click();
    await expectHidden(detail.rotateDialog);
    expect(await page.content()).not.toContain(rotated);

    const seq = await createAccount(usdId);
    await expectVisible(detail.delivered(seq));
    const [delivery] = await receivedFor(seq);
    expect({ signatures: delivery!.signatures, validWith: delivery!.valid_with }).toEqual({ signatures: 2, validWith: [0, 1] });
    secret = rotated;
  });

  it('replays the events after a seq: the receiver gets them again, in order, and the page shows the new attempts', async () => {
    e2e.expectHttpErrors(400);
    const detail = new WebhookPage(page, endpointId, endpointUrl);
    const before = (await receiver.received()).received.length;
    const delivered = [...new Set((await receiver.received()).received
      .filter((delivery) => delivery.status === 200 && Number(delivery.event.seq) > Number(currencySeq)).map((delivery) => delivery.event.seq))];

    // A seq that is not a number is refused under the field, the way every form shows the API's errors.
    await detail.replay.click();
    await detail.replayAfter.fill('the start');
    await detail.replayConfirm.click();
    await expectText(page.getByTestId('webhook-replay-dialog').locator('.field__error'), /after_seq|seq/);

    await detail.replayAfter.fill(String(Number(currencySeq) - 1));
    await detail.replayConfirm.click();
    await expectHidden(page.getByTestId('webhook-replay-dialog'));
    // The currency's event is delivered a second time, as attempt 1 again, and the later ones after it.
    await expectCount(detail.page.locator(`[data-testid="webhook-attempt"][data-seq="${currencySeq}"][data-outcome="ok"]`), 2);
    const last = delivered.at(-1)!;
    await expectCount(detail.delivered(last), 2);
    const again = (await receiver.received()).received.slice(before).map((delivery) => delivery.event.seq);
    expect(again).toEqual([currencySeq, ...delivered]);
  });

  it('looks right on a phone and on desktop screens (screenshots)', async () => {
    for (const viewport of [PHONE, { width: 1280, height: 800 }, { width: 1440, height: 900 }]) {
      const shot = await e2e.newPage({ viewport });
      await new SignInPage(shot).goto().then((signIn) => signIn.signIn(ADMIN));
      await new DashboardPage(shot).ready();
      const list = await new WebhooksPage(shot).open();
      await expectVisible(list.row(endpointUrl));
      await e2e.screenshot(shot, `webhooks/list-${viewport.width}`);
      await shot.getByRole('link', { name: endpointUrl, exact: true }).click();
      const detail = new WebhookPage(shot, endpointId, endpointUrl);
      await detail.ready();
      await expectVisible(detail.delivered(currencySeq).first());
      await e2e.screenshot(shot, `webhooks/detail-${viewport.width}`);
      const width = await detail.fitsViewportWidth();
      expect(width.scrollWidth).toBeLessThanOrEqual(width.innerWidth);
      await shot.context().close();
    }
  });

  it('deletes the endpoint after a confirmation', async () => {
    const detail = new WebhookPage(page, endpointId, endpointUrl);
    await detail.remove.click();
    await expectText(page.getByTestId('webhook-delete-dialog'), endpointUrl);
    await detail.removeConfirm.click();
    const list = new WebhooksPage(page);
    await list.ready();
    await expectVisible(page.getByText('No webhook endpoints yet'));
    expect(await call<unknown[]>('GET', '/api/v1/webhook-endpoints')).toEqual([]);
  });

  it('is not in the navigation of a user without webhooks:manage', async () => {
    const clerk = await e2e.newPage();
    await new SignInPage(clerk).goto().then((signIn) => signIn.signIn(CLERK));
    await new DashboardPage(clerk).ready();
    await expectVisible(clerk.getByTestId('nav-users'));
    await expectCount(clerk.getByTestId('nav-webhooks'), 0);
    await expectVisible(page.getByTestId('nav-webhooks'));
    await clerk.goto('/webhooks');
    await expectVisible(clerk.getByTestId('webhooks-forbidden'));
    await clerk.context().close();
  });
});
