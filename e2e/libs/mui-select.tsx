// MUI Select (Material UI): the select opens its menu on mousedown, in a popover whose backdrop covers the page (and
// so takes the release); an option is chosen on click and the menu closes.
import FormControl from '@mui/material/FormControl';
import InputLabel from '@mui/material/InputLabel';
import MenuItem from '@mui/material/MenuItem';
import Select from '@mui/material/Select';
import { useState } from 'react';
import { mount, record } from './shell.js';

const SIZES = ['Small', 'Medium', 'Large', 'Extra large'];

function App() {
  const [size, setSize] = useState('Medium');
  return (
    <div style={{ padding: 40 }}>
      <FormControl sx={{ minWidth: 200 }}>
        <InputLabel id="size-label">Size</InputLabel>
        <Select
          labelId="size-label"
          label="Size"
          value={size}
          onOpen={() => record('opened', true)}
          onClose={() => record('opened', false)}
          onChange={(event) => {
            setSize(event.target.value);
            record('value', event.target.value);
          }}
        >
          {SIZES.map((s) => (
            <MenuItem key={s} value={s}>
              {s}
            </MenuItem>
          ))}
        </Select>
      </FormControl>
    </div>
  );
}

record('value', 'Medium');
mount(<App />);
