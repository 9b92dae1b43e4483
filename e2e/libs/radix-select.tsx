// Radix UI Select as shadcn/ui uses it: the trigger opens the listbox on pointerdown (the release then lands on the
// list drawn under the pointer), an item is chosen on pointerup, and the list unmounts at once. The list is taller than
// its viewport: scrolled, it shows a scroll-up button a frame later, which shifts its items.
import * as Select from '@radix-ui/react-select';
import { useState } from 'react';
import { mount, record } from './shell.js';

const ZONES = ['Eastern', 'Central', 'Mountain', 'Pacific', 'Alaska', 'Hawaii', 'Greenwich Mean', 'Central European', 'Eastern European', 'Moscow', 'India Standard', 'China Standard', 'Japan Standard', 'Korea Standard', 'Australian Eastern', 'New Zealand'].map((zone) => `${zone} Time`);
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
          <Select.Content style={{ ...box, maxHeight: 240 }}>
            <Select.ScrollUpButton style={{ textAlign: 'center' }}>▴</Select.ScrollUpButton>
            <Select.Viewport>
              {ZONES.map((zone) => (
                <Select.Item key={zone} value={zone} style={{ padding: '4px 24px' }}>
                  <Select.ItemText>{zone}</Select.ItemText>
                </Select.Item>
              ))}
            </Select.Viewport>
            <Select.ScrollDownButton style={{ textAlign: 'center' }}>▾</Select.ScrollDownButton>
          </Select.Content>
        </Select.Portal>
      </Select.Root>
    </div>
  );
}

record('value', null);
mount(<App />);
