// Headless UI Combobox (v2): a text input with a button that opens the options on press (mousedown/pointerdown),
// options chosen on click; the list is anchored under the input and unmounts when closed.
import { Combobox, ComboboxButton, ComboboxInput, ComboboxOption, ComboboxOptions, Label, Field } from '@headlessui/react';
import { useEffect, useState } from 'react';
import { mount, record } from './shell.js';

const PEOPLE = ['Wade Cooper', 'Arlene Mccoy', 'Devon Webb', 'Tom Cook', 'Tanya Fox'];

/** Headless UI tells whether the options are open only to its render function: note it after each render. */
function Opened({ open }: { open: boolean }) {
  useEffect(() => record('opened', open), [open]);
  return null;
}

function App() {
  const [value, setValue] = useState<string | null>(null);
  const [query, setQuery] = useState('');
  const shown = query === '' ? PEOPLE : PEOPLE.filter((p) => p.toLowerCase().includes(query.toLowerCase()));
  const choose = (next: string | null): void => {
    setValue(next);
    record('value', next);
  };
  return (
    <div style={{ padding: 40 }}>
      <Field>
        <Label>Assignee</Label>{' '}
        <Combobox value={value} onChange={choose} onClose={() => setQuery('')}>
          {({ open }) => (
            <>
              <Opened open={open} />
              <ComboboxInput displayValue={(p: string | null) => p ?? ''} onChange={(e) => setQuery(e.target.value)} />
              <ComboboxButton aria-label="Show people">▾</ComboboxButton>
              <ComboboxOptions anchor="bottom start" style={{ background: 'white', border: '1px solid #999', minWidth: 180 }}>
                {shown.map((person) => (
                  <ComboboxOption key={person} value={person} style={{ padding: '4px 12px' }}>
                    {person}
                  </ComboboxOption>
                ))}
              </ComboboxOptions>
            </>
          )}
        </Combobox>
      </Field>
    </div>
  );
}

record('value', null);
mount(<App />);
