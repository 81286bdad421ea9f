/**
 * What every signed-in page shares: the navigation (a sidebar on desktop, a drawer behind the
 * menu button on phones), the page heading and the signed-in user. Page models extend it.
 */
import type { Locator, Page } from 'playwright-core';
import { expectVisible } from '../fixture.js';

export type NavTarget =
  | 'dashboard' | 'accounts' | 'journal' | 'periods' | 'bank' | 'bank-rules' | 'reconcile' | 'trial-balance' | 'balance-sheet' | 'income-statement' | 'general-ledger'
  | 'aged-balances'
  | 'currencies' | 'rates' | 'users' | 'webhooks' | 'settings';

export abstract class AppShell {
  /** The page's <h1> text, which tells that the page has rendered. */
  protected abstract readonly title: string | RegExp;
  /** The path a direct navigation opens. */
  protected abstract readonly path: string;
  /** The navigation link that leads here. */
  protected abstract readonly navTarget: NavTarget | undefined;

  constructor(readonly page: Page) {}

  get heading(): Locator {
    return this.page.getByRole('heading', { level: 1, name: this.title });
  }

  get menuToggle(): Locator {
    return this.page.getByTestId('menu-toggle');
  }

  /** Follows the navigation link, opening the phone menu first when the sidebar is a drawer. */
  async open(): Promise<this> {
    if (!this.navTarget) return this.goto();
    await AppShell.navigate(this.page, this.navTarget);
    await this.ready();
    return this;
  }

  /** Loads the page's address directly, as a bookmark or a typed URL would. */
  async goto(query = ''): Promise<this> {
    await this.page.goto(this.path + query);
    await this.ready();
    return this;
  }

  async ready(): Promise<void> {
    await expectVisible(this.heading);
  }

  static async navigate(page: Page, target: NavTarget): Promise<void> {
    const link = page.getByTestId(`nav-${target}`);
    const toggle = page.getByTestId('menu-toggle');
    if (await toggle.isVisible() && (await toggle.getAttribute('aria-expanded')) !== 'true') await toggle.click();
    await link.click();
  }

  /** The page's width and the window's: the page scrolls sideways when the first is larger. */
  async fitsViewportWidth(): Promise<{ scrollWidth: number; innerWidth: number }> {
    // A string, because the test code is compiled without the DOM's types.
    return this.page.evaluate<{ scrollWidth: number; innerWidth: number }>(
      '({ scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth })');
  }
}

/**
 * Selects the option whose text contains `text`. Account pickers indent sub-accounts with
 * non-breaking spaces, which an exact label match would have to spell out.
 */
export async function selectOptionContaining(select: Locator, text: string): Promise<void> {
  const option = select.locator('option', { hasText: text }).first();
  const value = await option.getAttribute('value');
  if (value === null) throw new Error(`no option containing "${text}"`);
  await select.selectOption(value);
}
