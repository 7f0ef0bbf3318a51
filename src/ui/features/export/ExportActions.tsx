import { useState } from 'react'
import { shareLink, useLabStore } from '../../../store/index.ts'
import { TID } from '../../testids.ts'
import { ExportDialog } from './ExportDialog.tsx'
import {
  closeExportDialogs,
  openExportDialog,
  openImportDialog,
  useOpenExportDialog,
} from './exportDialogs.ts'
import './export.css'
import { ImportConfigDialog } from './ImportConfigDialog.tsx'
import { copyText } from './transfer.ts'

type ShareState =
  { readonly status: 'idle' } | { readonly status: 'copied' | 'failed'; readonly url: string }

/** Export…, Import config… and Copy share link, with the dialogs they open. */
export function ExportActions() {
  const lab = useLabStore()
  const open = useOpenExportDialog()
  const [share, setShare] = useState<ShareState>({ status: 'idle' })

  const onShare = async () => {
    const url = await shareLink(lab, globalThis.location.href)
    setShare({ status: (await copyText(url)) ? 'copied' : 'failed', url })
  }

  return (
    <div className="xp-buttons">
      <button
        type="button"
        className="button"
        onClick={openExportDialog}
        data-testid={TID.exportOpen}
        aria-keyshortcuts="e"
      >
        Export…
      </button>
      <button
        type="button"
        className="button"
        onClick={openImportDialog}
        data-testid={TID.importOpen}
      >
        Import config…
      </button>
      <button
        type="button"
        className="button"
        onClick={() => void onShare()}
        data-testid={TID.shareCopy}
        title="A link to this page with the config (never the transcript) in its fragment"
      >
        Copy share link
      </button>
      <span
        className="hint xp-status"
        role="status"
        data-testid={TID.shareStatus}
        data-status={share.status}
        data-url={share.status === 'idle' ? '' : share.url}
      >
        {share.status === 'copied'
          ? 'Link copied.'
          : share.status === 'failed'
            ? 'Could not copy the link.'
            : ''}
      </span>
      {share.status === 'failed' ? (
        <input
          className="xp-share-url"
          readOnly
          value={share.url}
          aria-label="Share link"
          onFocus={(e) => e.target.select()}
        />
      ) : null}
      {open === 'export' ? <ExportDialog onClose={closeExportDialogs} /> : null}
      {open === 'import' ? <ImportConfigDialog onClose={closeExportDialogs} /> : null}
    </div>
  )
}
