// MUI Slider: each thumb is a <span> drawn over an <input type="range"> clipped to nothing (the input keeps focus,
// value and the ARIA attributes); a press on the rail or a thumb sets the value and focuses that input.
import Slider from '@mui/material/Slider';
import { useState } from 'react';
import { mount, record } from './shell.js';

function App() {
  const [volume, setVolume] = useState(20);
  return (
    <div style={{ padding: 60, width: 320 }}>
      <span id="volume-label">Volume</span>
      <Slider
        aria-labelledby="volume-label"
        value={volume}
        valueLabelDisplay="auto"
        onChange={(_, next) => {
          setVolume(next as number);
          record('volume', next);
        }}
      />
      <span>Price</span>
      <Slider getAriaLabel={(index) => (index === 0 ? 'Minimum price' : 'Maximum price')} defaultValue={[20, 80]} onChange={(_, next) => record('price', next)} />
    </div>
  );
}

record('volume', 20);
mount(<App />);
