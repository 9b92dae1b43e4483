// URL globs for `wait --url`: the whole URL must match. `**` matches anything, `*` anything
// except "/", every other character (including "?" and ".") matches itself — URLs are full of
// "?" and ".", so they are not wildcards here. Examples:
//   https://example.com/*     one path segment under the root
//   **/checkout/done          any URL ending in /checkout/done
//   **/search?q=*             a search page with any query
export function globToRegExp(glob: string): RegExp {
  let source = '';
  for (let i = 0; i < glob.length; i++) {
    const char = glob.charAt(i);
    if (char === '*') {
      if (glob.charAt(i + 1) === '*') {
        source += '.*';
        i++;
      } else {
        source += '[^/]*';
      }
    } else {
      source += char.replace(/[\\^$.|?+()[\]{}]/g, '\\$&');
    }
  }
  return new RegExp(`^${source}$`);
}

export function urlMatches(glob: string, url: string): boolean {
  return globToRegExp(glob).test(url);
}
