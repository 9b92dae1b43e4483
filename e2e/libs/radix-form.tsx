// Radix Switch, Checkbox and Slider as shadcn/ui uses them: the switch and the checkbox are <button>s named by a
// <label htmlFor>, the slider's thumb is a <span role="slider"> with an aria-label.
import * as Checkbox from '@radix-ui/react-checkbox';
import * as Slider from '@radix-ui/react-slider';
import * as Switch from '@radix-ui/react-switch';
import { mount, record } from './shell.js';

const row = { display: 'flex', gap: 8, alignItems: 'center', margin: 16 } as const;

function App() {
  return (
    <div style={{ padding: 40 }}>
      <div style={row}>
        <label htmlFor="digest">Weekly digest</label>
        <Switch.Root id="digest" onCheckedChange={(on) => record('digest', on)} style={{ width: 42, height: 24, borderRadius: 12, background: '#ccc', border: 0 }}>
          <Switch.Thumb style={{ display: 'block', width: 20, height: 20, borderRadius: 10, background: 'white' }} />
        </Switch.Root>
      </div>
      <div style={row}>
        <Checkbox.Root id="terms" onCheckedChange={(on) => record('terms', on)} style={{ width: 20, height: 20, border: '1px solid #333', background: 'white' }}>
          <Checkbox.Indicator>✓</Checkbox.Indicator>
        </Checkbox.Root>
        <label htmlFor="terms">Accept terms</label>
      </div>
      <div style={row}>
        <span>Volume</span>
        <Slider.Root defaultValue={[30]} max={100} step={1} onValueChange={([volume]) => record('volume', volume)} style={{ position: 'relative', display: 'flex', alignItems: 'center', width: 200, height: 20 }}>
          <Slider.Track style={{ position: 'relative', flexGrow: 1, height: 4, background: '#ccc' }}>
            <Slider.Range style={{ position: 'absolute', height: '100%', background: '#36c' }} />
          </Slider.Track>
          <Slider.Thumb aria-label="Volume" style={{ display: 'block', width: 20, height: 20, borderRadius: 10, background: '#36c' }} />
        </Slider.Root>
      </div>
    </div>
  );
}

mount(<App />);
