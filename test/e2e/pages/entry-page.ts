import { expectHidden } from '../fixture.js';
import { AppShell } from './app-shell.js';

/** One journal entry: its lines, the links between an entry and its reversal, the copy and reverse actions. */
export class EntryPage extends AppShell {
  protected readonly path: string;
  protected readonly navTarget = undefined;

  constructor(page: AppShell['page'], protected readonly title: string | RegExp, entryId = '') {
    super(page);
    this.path = `/journal/${entryId}`;
  }

  readonly lines = this.page.getByTestId('entry-line');
  readonly reverse = this.page.getByTestId('entry-reverse');
  readonly copy = this.page.getByTestId('entry-copy');
  readonly closingNote = this.page.getByTestId('entry-closing-note');
  readonly reverseDialog = this.page.getByTestId('reverse-dialog');
  readonly reversalLink = this.page.getByTestId('entry-reversal-link');
  readonly originalLink = this.page.getByTestId('entry-original-link');

  line(accountName: string) {
    return this.lines.filter({ hasText: accountName });
  }

  /** Reverses the entry, on its own date unless another is given; the app then shows the reversal. */
  async reverseOn(date?: string): Promise<void> {
    await this.reverse.click();
    if (date) await this.page.getByTestId('reverse-date').fill(date);
    await this.page.getByTestId('reverse-confirm').click();
    await expectHidden(this.reverseDialog);
  }
}
