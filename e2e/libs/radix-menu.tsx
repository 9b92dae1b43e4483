// Radix UI DropdownMenu (shadcn/ui's menu): the trigger opens the menu on pointerdown, an item acts on pointerup
// (onSelect) and the menu unmounts at once.
import * as Menu from '@radix-ui/react-dropdown-menu';
import { mount, record } from './shell.js';

const ACTIONS = ['Rename', 'Duplicate', 'Archive', 'Delete'];
const chosen: string[] = [];

function choose(action: string): void {
  chosen.push(action);
  record('chosen', [...chosen]);
}

function App() {
  return (
    <div style={{ padding: 40 }}>
      <Menu.Root onOpenChange={(open) => record('opened', open)}>
        <Menu.Trigger style={{ padding: 6 }}>File actions</Menu.Trigger>
        <Menu.Portal>
          <Menu.Content align="start" style={{ background: 'white', border: '1px solid #999', padding: 4, minWidth: 160 }}>
            {ACTIONS.map((action) => (
              <Menu.Item key={action} style={{ padding: '4px 12px' }} onSelect={() => choose(action)}>
                {action}
              </Menu.Item>
            ))}
          </Menu.Content>
        </Menu.Portal>
      </Menu.Root>
    </div>
  );
}

record('chosen', []);
mount(<App />);
