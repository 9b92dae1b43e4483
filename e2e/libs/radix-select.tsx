// Radix UI Select as shadcn/ui uses it: the trigger opens the listbox on pointerdown (the release then lands on the
// list drawn under the pointer), an item is chosen on pointerup, and the list unmounts at once.
import * as Select from '@radix-ui/react-select';
import { useState } from 'react';
import { mount, record } from './shell.js';

const ZONES = ['Eastern Time', 'Central Time', 'Mountain Time', 'Pacific Time', 'Greenwich Mean Time', 'Japan Standard Time'];
const box = { background: 'white', border: '1px solid #999', padding: 4 };

function App() {
  const [value, setValue] = useState<string | undefined>(undefined);
  const choose = (next: string): void => {
    setValue(next);
    record('value', next);
  };
  return (
    <div style={{ padding: 40 }}>
      <label id="tz-label">Time zone</label>{' '}
      <Select.Root value={value} onValueChange={choose} onOpenChange={(open) => record('opened', open)}>
        <Select.Trigger aria-labelledby="tz-label" style={{ minWidth: 200, padding: 6 }}>
          <Select.Value placeholder="Select a time zone…" />
          <Select.Icon>▾</Select.Icon>
        </Select.Trigger>
        <Select.Portal>
          <Select.Content style={box}>
            <Select.Viewport>
              {ZONES.map((zone) => (
                <Select.Item key={zone} value={zone} style={{ padding: '4px 24px' }}>
                  <Select.ItemText>{zone}</Select.ItemText>
                </Select.Item>
              ))}
            </Select.Viewport>
          </Select.Content>
        </Select.Portal>
      </Select.Root>
    </div>
  );
}

record('value', null);
mount(<App />);
