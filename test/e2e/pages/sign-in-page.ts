/** The pages before the app: first-run setup and sign-in. */
import type { Locator, Page } from 'playwright-core';
import { expectVisible } from '../fixture.js';

export class SignInPage {
  constructor(readonly page: Page) {}

  get email(): Locator { return this.page.getByTestId('login-email'); }
  get password(): Locator { return this.page.getByTestId('login-password'); }
  get submit(): Locator { return this.page.getByTestId('login-submit'); }
  get setupHeading(): Locator { return this.page.getByRole('heading', { level: 1, name: 'Set up your ledger' }); }
  get signInHeading(): Locator { return this.page.getByRole('heading', { level: 1, name: 'Sign in' }); }

  async goto(): Promise<this> {
    await this.page.goto('/');
    return this;
  }

  /** Creates the first user, who becomes the administrator. */
  async setUp(user: { name: string; email: string; password: string }): Promise<void> {
    await expectVisible(this.setupHeading);
    await this.page.getByTestId('setup-name').fill(user.name);
    await this.page.getByTestId('setup-email').fill(user.email);
    await this.page.getByTestId('setup-password').fill(user.password);
    await this.page.getByTestId('setup-password-confirm').fill(user.password);
    await this.page.getByTestId('setup-submit').click();
  }

  async signIn(user: { email: string; password: string }): Promise<void> {
    await expectVisible(this.signInHeading);
    await this.email.fill(user.email);
    await this.password.fill(user.password);
    await this.submit.click();
  }
}
