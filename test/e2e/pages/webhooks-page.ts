/** Webhooks: the list of endpoints with its "New endpoint" form, and an endpoint's own page with its attempts and actions. */
import type { Locator } from 'playwright-core';
import { expectVisible } from '../fixture.js';
import { AppShell } from './app-shell.js';

/** The create and rotate dialogs' shown-once secret. */
class SecretPanel {
  constructor(readonly root: Locator) {}
  get value(): Locator { return this.root.getByTestId('webhook-secret-value'); }
  get copy(): Locator { return this.root.getByTestId('webhook-secret-copy'); }
  get done(): Locator { return this.root.getByTestId('webhook-secret-done'); }
  async read(): Promise<string> {
    await expectVisible(this.value);
    return this.value.inputValue();
  }
}

export class WebhooksPage extends AppShell {
  protected readonly title = 'Webhooks';
  protected readonly path = '/webhooks';
  protected readonly navTarget = 'webhooks' as const;

  readonly rows = this.page.getByTestId('webhook-row');
  readonly newEndpoint = this.page.getByTestId('webhook-new');
  readonly dialog = this.page.getByTestId('webhook-dialog');
  readonly url = this.page.getByTestId('webhook-url');
  readonly description = this.page.getByTestId('webhook-description');
  readonly allEvents = this.page.getByTestId('webhook-events-all');
  readonly chosenEvents = this.page.getByTestId('webhook-events-chosen');
  readonly save = this.page.getByTestId('webhook-save');
  readonly secret = new SecretPanel(this.page.getByTestId('webhook-dialog'));

  row(url: string): Locator {
    return this.rows.filter({ has: this.page.getByRole('link', { name: url, exact: true }) });
  }

  eventType(type: string): Locator {
    return this.page.getByTestId(`webhook-type-${type}`);
  }

  /** Fills the new-endpoint form: all events, or only `types`. */
  async create(input: { url: string; types?: string[]; description?: string }): Promise<void> {
    await this.newEndpoint.click();
    await this.url.fill(input.url);
    if (input.types) {
      await this.chosenEvents.check();
      for (const type of input.types) await this.eventType(type).check();
    } else {
      await this.allEvents.check();
    }
    if (input.description) await this.description.fill(input.description);
    await this.save.click();
  }
}

export class WebhookPage extends AppShell {
  protected readonly title: RegExp;
  protected readonly path: string;
  protected readonly navTarget = undefined;

  constructor(page: WebhooksPage['page'], id: string, url: string) {
    super(page);
    this.path = `/webhooks/${id}`;
    this.title = new RegExp(url.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  }

  readonly settings = this.page.getByTestId('webhook-settings');
  readonly status = this.settings.getByTestId('webhook-status');
  readonly lastSeq = this.settings.getByTestId('webhook-last-seq');
  readonly types = this.page.getByTestId('webhook-types-shown');
  readonly disabledNotice = this.page.getByTestId('webhook-disabled-notice');
  readonly disabledReason = this.disabledNotice.getByTestId('webhook-disabled-reason');
  readonly attempts = this.page.getByTestId('webhook-attempt');
  readonly loadMore = this.page.getByTestId('webhook-attempts-more');
  readonly enable = this.page.getByTestId('webhook-enable');
  readonly disable = this.page.getByTestId('webhook-disable');
  readonly replay = this.page.getByTestId('webhook-replay');
  readonly replayAfter = this.page.getByTestId('webhook-replay-after');
  readonly replayConfirm = this.page.getByTestId('webhook-replay-confirm');
  readonly rotate = this.page.getByTestId('webhook-rotate');
  readonly rotateConfirm = this.page.getByTestId('webhook-rotate-confirm');
  readonly rotateDialog = this.page.getByTestId('webhook-rotate-dialog');
  readonly secret = new SecretPanel(this.page.getByTestId('webhook-rotate-dialog'));
  readonly edit = this.page.getByTestId('webhook-edit');
  readonly remove = this.page.getByTestId('webhook-delete');
  readonly removeConfirm = this.page.getByTestId('webhook-delete-confirm');

  /** The attempts at delivering event `seq`, newest first. */
  attemptsOf(seq: string): Locator {
    return this.page.locator(`[data-testid="webhook-attempt"][data-seq="${seq}"]`);
  }

  delivered(seq: string): Locator {
    return this.page.locator(`[data-testid="webhook-attempt"][data-seq="${seq}"][data-outcome="ok"]`);
  }

  failed(seq: string): Locator {
    return this.page.locator(`[data-testid="webhook-attempt"][data-seq="${seq}"][data-outcome="failed"]`);
  }
}
