import { Section } from '../../components/Section.tsx'
import { FilePicker } from './FilePicker.tsx'
import { ItemPicker } from './ItemPicker.tsx'
import { LoadError } from './LoadError.tsx'
import { PasteBox } from './PasteBox.tsx'
import { RecentFiles } from './RecentFiles.tsx'
import { SamplePicker } from './SamplePicker.tsx'
import { SourceLine } from './SourceLine.tsx'

/** Every way in: a sample, pasted text, picked files (and drop anywhere, see DropZone). */
export function ImportPanel() {
  return (
    <div className="column import-column">
      <Section title="Load a transcript" aside={<SamplePicker />}>
        <SourceLine />
        <ItemPicker />
        <PasteBox />
        <LoadError />
        <FilePicker />
        <RecentFiles />
      </Section>
    </div>
  )
}
