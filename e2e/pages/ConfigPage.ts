import { expect, type Locator, type Page } from '@playwright/test'
import { TID } from '../../src/ui/testids.ts'

/** The config editor (features/config), driven by what the user edits rather than by selectors. */
export class ConfigPage {
  readonly page: Page
  readonly root: Locator
  readonly steps: Locator
  readonly json: Locator
  readonly jsonError: Locator
  readonly delta: Locator
  readonly issues: Locator
  readonly reset: Locator
  readonly addStrategy: Locator
  readonly addStep: Locator

  constructor(page: Page) {
    this.page = page
    this.root = page.getByTestId(TID.configEditor)
    this.steps = this.root.getByTestId(TID.configStep)
    this.json = this.root.getByTestId(TID.configJson)
    this.jsonError = this.root.getByTestId(TID.configJsonError)
    this.delta = this.root.getByTestId(TID.configDelta)
    this.issues = this.root.getByTestId(TID.configIssues)
    this.reset = this.root.getByTestId(TID.configReset)
    this.addStrategy = this.root.getByTestId(TID.configAddStrategy)
    this.addStep = this.root.getByTestId(TID.configAddStep)
  }

  /** The input that edits the value at `path` (`window.contextTokens`, `pipeline[1].params.keep`). */
  field(path: string): Locator {
    return this.root.locator(`[data-testid="${TID.configField}"][data-path="${path}"]`)
  }

  /** The inline error shown under the field at `path`. */
  fieldError(path: string): Locator {
    return this.root.locator(`[data-testid="${TID.configFieldError}"][data-path="${path}"]`)
  }

  step(index: number): Locator {
    return this.steps.nth(index)
  }

  stepButton(index: number, which: 'up' | 'down' | 'remove' | 'enabled'): Locator {
    const ids = {
      up: TID.configStepUp,
      down: TID.configStepDown,
      remove: TID.configStepRemove,
      enabled: TID.configStepEnabled,
    } as const
    return this.step(index).getByTestId(ids[which])
  }

  stepOutcome(index: number): Locator {
    return this.step(index).getByTestId(TID.configStepOutcome)
  }

  /** The usable window the budget headline states (window − reserved output − buffer). */
  async usable(): Promise<number> {
    return Number(await this.page.getByTestId(TID.budgetUsable).getAttribute('data-usable'))
  }

  async setField(path: string, value: string): Promise<void> {
    await this.field(path).fill(value)
  }

  /** The strategies of the pipeline, in order, as the cards show them. */
  async strategies(): Promise<string[]> {
    return this.steps.evaluateAll((cards) =>
      cards.map((c) => c.getAttribute('data-strategy') ?? ''),
    )
  }

  /** The JSON view's text, parsed. */
  async jsonValue(): Promise<Record<string, unknown>> {
    return JSON.parse(await this.json.inputValue()) as Record<string, unknown>
  }

  async setJson(value: unknown): Promise<void> {
    await this.json.fill(JSON.stringify(value, null, 2))
  }

  async expectReady(): Promise<void> {
    await expect(this.steps.first()).toBeVisible()
  }
}
