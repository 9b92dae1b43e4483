/**
 * Is what a field holds after `fill` the requested value as the page formats it? Masked inputs (IMask, Cleave,
 * react-input-mask, phone and card fields) rewrite what is typed into them: `12/34` becomes `12 / 34`, `4242424242424242`
 * becomes `4242 4242 4242 4242`, `abc123` becomes `ABC123`. That is the value the agent asked for, in the page's format.
 * A mask that drops what does not fit (`12345` in a 3-digit CVC → `123`, `13` in a month field → `1`), a maxlength, a
 * field that refuses letters: that is not the value, and stays an error.
 *
 * The rule, pure and strict: the letters and digits of the two, in order, are the same (case aside), and there is at
 * least one; what lies between them is formatting a mask may add, change or move — spaces, slashes, dashes, brackets —
 * but not take away: a mark the agent put between two characters (or before the first) that the field no longer has
 * anything at all in place of is a changed value (`1.5` held as `15`, `-5` as `5`). A mask that adds letters or digits
 * of its own (a `+1` country code) is not recognised: the error then says what the field holds, and filling the value
 * as the page writes it succeeds.
 */

interface Parts {
  /** Letters and digits, in order, case folded: what formatting cannot change. */
  significant: string[];
  /** gaps[i]: what stands before significant[i]; the last entry, what follows the last one. */
  gaps: string[];
}

function parts(text: string): Parts {
  const significant: string[] = [];
  const gaps: string[] = [''];
  for (const char of text.normalize('NFC')) {
    if (/[\p{L}\p{N}]/u.test(char)) {
      significant.push(char.toLocaleLowerCase());
      gaps.push('');
    } else {
      gaps[gaps.length - 1] += char;
    }
  }
  return { significant, gaps };
}

/** Pure: `held` is `requested` as the page formats it (and not just equal to it). */
export function formattedAs(requested: string, held: string): boolean {
  if (requested === held) return false;
  const wanted = parts(requested);
  const got = parts(held);
  if (wanted.significant.length === 0 || wanted.significant.join('\0') !== got.significant.join('\0')) return false;
  // A mark between characters that is gone without a trace changed the value; whitespace is only spacing.
  return wanted.gaps.every((gap, i) => gap.trim() === '' || (got.gaps[i] ?? '') !== '');
}
