import { useDensity, usePrefsActions } from '../../store/index.ts'
import { ViewTabs } from '../layout/ViewTabs.tsx'
import { openShortcutsHelp } from '../commands/overlays.ts'
import { TID } from '../testids.ts'
import { ThemeToggle } from './ThemeToggle.tsx'

const DENSITY_LABELS = { system: 'Auto', compact: 'Compact', comfortable: 'Comfortable' } as const

function DensityToggle() {
  const density = useDensity()
  const { cycleDensity } = usePrefsActions()
  return (
    <button
      type="button"
      className="button ghost"
      onClick={cycleDensity}
      data-testid={TID.densityToggle}
      data-density-pref={density}
      title="Row density (auto follows the pointer: compact with a mouse, comfortable on touch) (D)"
    >
      Density: {DENSITY_LABELS[density]}
    </button>
  )
}

/** One line: name, the views, the privacy promise, density, theme and the key list. */
export function Header() {
  return (
    <header className="header">
      <a className="skip-link" href="#group-list" data-testid={TID.skipLink}>
        Skip to the group list
      </a>
      <div className="brand">
        <span className="brand-name">Compaction Lab</span>
      </div>
      <ViewTabs />
      <p
        className="privacy"
        data-testid={TID.privacyNote}
        title="Your transcript never leaves this browser — nothing is uploaded. It is kept on this device only (IndexedDB) until you forget it."
      >
        <span aria-hidden="true" className="privacy-dot" />
        Your transcript never leaves this browser — nothing is uploaded.
      </p>
      <DensityToggle />
      <ThemeToggle />
      <button
        type="button"
        className="button ghost"
        onClick={openShortcutsHelp}
        data-testid={TID.helpButton}
        title="Keyboard shortcuts (?)"
        aria-label="Keyboard shortcuts"
      >
        ?
      </button>
    </header>
  )
}
