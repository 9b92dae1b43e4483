// IMask (uNmAnNeR) masks as payment and contact forms use them: fields whose mask inserts its own separators while the
// person types, and ones that drop what does not fit.
import IMask from 'imask';

document.body.innerHTML = `<form style="padding:40px;display:grid;gap:8px;width:320px">
<label>Expiry <input id="exp" inputmode="numeric" autocomplete="cc-exp" placeholder="MM / YY"></label>
<label>Card number <input id="num" inputmode="numeric" autocomplete="cc-number"></label>
<label>Phone <input id="phone" type="tel"></label>
<label>CVC <input id="cvc" inputmode="numeric" autocomplete="cc-csc"></label>
<label>Month <input id="month" inputmode="numeric"></label>
<label>Sign-in code <input id="otp" inputmode="numeric" autocomplete="one-time-code"></label>
</form>`;

const field = (id: string): HTMLInputElement => {
  const element = document.getElementById(id);
  if (!(element instanceof HTMLInputElement)) throw new Error(`no input #${id}`);
  return element;
};

const masks = {
  exp: IMask(field('exp'), {
    mask: 'MM / YY',
    blocks: { MM: { mask: IMask.MaskedRange, from: 1, to: 12, maxLength: 2 }, YY: { mask: IMask.MaskedRange, from: 0, to: 99, maxLength: 2 } },
  }),
  num: IMask(field('num'), { mask: '0000 0000 0000 0000' }),
  phone: IMask(field('phone'), { mask: '(000) 000-0000' }),
  cvc: IMask(field('cvc'), { mask: '000' }),
  month: IMask(field('month'), { mask: IMask.MaskedRange, from: 1, to: 12, maxLength: 2 }),
  otp: IMask(field('otp'), { mask: '000 000' }),
};

/** What each mask holds, unmasked, for the tests to read through the observer. */
Object.assign(window, { masked: () => Object.fromEntries(Object.entries(masks).map(([id, mask]) => [id, mask.unmaskedValue])) });
