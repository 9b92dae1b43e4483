// react-select with several values: each chosen value is a chip whose remove "button" is a <div role="button"
// aria-label="Remove …"> holding nothing but an aria-hidden SVG cross.
import Select from 'react-select';
import { mount, record } from './shell.js';

interface Option {
  value: string;
  label: string;
}

const FLAVOURS: Option[] = ['Peach', 'Rum raisin', 'Coconut', 'Raspberry'].map((label) => ({ value: label.toLowerCase(), label }));

function App() {
  return (
    <div style={{ padding: 40, width: 420 }}>
      <label htmlFor="flavours-input">Favourite flavours</label>
      <Select<Option, true>
        isMulti
        inputId="flavours-input"
        options={FLAVOURS}
        defaultValue={FLAVOURS.slice(0, 2)}
        onChange={(next) => record('value', next.map((option) => option.value))}
      />
    </div>
  );
}

record('value', ['peach', 'rum raisin']);
mount(<App />);
