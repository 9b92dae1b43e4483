// react-select (single value, as most apps use it): the control opens its menu on mousedown and an option is chosen
// on click; the input inside the control keeps the focus.
import { useState } from 'react';
import Select from 'react-select';
import { mount, record } from './shell.js';

interface Option {
  value: string;
  label: string;
}

const FLAVOURS: Option[] = ['Chocolate', 'Strawberry', 'Vanilla', 'Pistachio', 'Mango'].map((label) => ({ value: label.toLowerCase(), label }));

function App() {
  const [value, setValue] = useState<Option | null>(null);
  return (
    <div style={{ padding: 40, width: 300 }}>
      <label htmlFor="flavour-input">Flavour</label>
      <Select<Option>
        inputId="flavour-input"
        options={FLAVOURS}
        value={value}
        onMenuOpen={() => record('opened', true)}
        onMenuClose={() => record('opened', false)}
        onChange={(next) => {
          setValue(next);
          record('value', next?.value ?? null);
        }}
      />
    </div>
  );
}

record('value', null);
mount(<App />);
