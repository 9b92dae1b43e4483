// Shoelace 2 web components: the checkbox's native input sits in a shadow-DOM <label> with a <slot> for its text, the
// rating is a role="slider" whose stars are aria-hidden <sl-icon>s drawing SVG in their own shadow roots, the range a
// native <input type=range> styled in its shadow root; the select chooses an option on mouseup and then hides its list
// behind a 100 ms animation.
import '@shoelace-style/shoelace/dist/components/checkbox/checkbox.js';
import '@shoelace-style/shoelace/dist/components/option/option.js';
import '@shoelace-style/shoelace/dist/components/range/range.js';
import '@shoelace-style/shoelace/dist/components/select/select.js';
import '@shoelace-style/shoelace/dist/components/rating/rating.js';
import '@shoelace-style/shoelace/dist/components/switch/switch.js';
import theme from '@shoelace-style/shoelace/dist/themes/light.css';
import { record } from './shell.js';

const style = document.createElement('style');
style.textContent = theme;
document.head.append(style);
const root = document.createElement('div');
root.id = 'root';
root.style.padding = '40px';
root.innerHTML = '<p><sl-checkbox>Gift wrap</sl-checkbox></p><p>Rate the shop</p><sl-rating label="Rate the shop" value="2"></sl-rating><p><sl-switch>Dark mode</sl-switch></p><sl-range label="Volume" value="20" style="width: 300px"></sl-range>' +
  '<sl-select label="Shipping" value="standard" style="width: 300px"><sl-option value="standard">Standard</sl-option><sl-option value="express">Express</sl-option></sl-select>';
document.body.append(root);
for (const [selector, key] of [['sl-checkbox', 'gift'], ['sl-switch', 'dark']] as const) {
  root.querySelector(selector)?.addEventListener('sl-change', (event) => record(key, (event.target as HTMLInputElement).checked));
}
root.querySelector('sl-rating')?.addEventListener('sl-change', (event) => record('rating', (event.target as HTMLInputElement & { value: number }).value));
root.querySelector('sl-select')?.addEventListener('sl-change', (event) => record('shipping', (event.target as HTMLInputElement).value));
root.querySelector('sl-range')?.addEventListener('sl-change', (event) => record('volume', (event.target as HTMLInputElement & { value: number }).value));
record('rating', 2);
