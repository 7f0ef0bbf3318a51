import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { createLabStore, LabStoreProvider } from './store/index.ts'
import { App } from './ui/app/App.tsx'
import { applyTheme } from './ui/app/theme.ts'
import './ui/styles.css'

// Apply the remembered theme before the first paint, so a dark-mode user never sees a light flash.
const lab = createLabStore()
applyTheme(lab.getState().theme)

const container = document.getElementById('root')
if (!container) throw new Error('index.html must contain #root')
createRoot(container).render(
  <StrictMode>
    <LabStoreProvider value={lab}>
      <App />
    </LabStoreProvider>
  </StrictMode>,
)
