import { describe, expect, it } from 'vitest';
import { cssUrl, fileWords, iconClassWords } from './names.js';

describe('icon names from what a page draws', () => {
  it("an image URL's file name, without sizes, states and icon-set prefixes", () => {
    expect(fileWords('../common/special/email-inbox/delete.png')).toBe('delete');
    expect(fileWords('/img/ic_trash_24dp.svg?v=3')).toBe('trash');
    expect(fileWords('https://cdn.example/icons/star-clicked.png')).toBe('star');
    expect(fileWords('/i/left-arrow-white@2x.png')).toBe('left arrow');
    expect(fileWords('sprite.svg#icon-send')).toBe('send');
    expect(fileWords('data:image/png;base64,AAAA')).toBe('');
    expect(fileWords('')).toBe('');
  });

  it('the first url() of a computed value, quoted or not', () => {
    expect(cssUrl('url("http://x/a/b/reply.png")')).toBe('http://x/a/b/reply.png');
    expect(cssUrl("url('x.svg') no-repeat")).toBe('x.svg');
    expect(cssUrl('url(plain.gif)')).toBe('plain.gif');
    expect(cssUrl('linear-gradient(red, blue)')).toBe('');
  });

  it("an icon font's class says the icon, its markers and sizes do not", () => {
    expect(iconClassWords('fa fa-star fa-lg')).toBe('star');
    expect(iconClassWords('icon-send')).toBe('send');
    expect(iconClassWords('bi bi-trash-fill')).toBe('trash fill');
    expect(iconClassWords('glyphicon glyphicon-remove')).toBe('remove');
    expect(iconClassWords('btn btn-primary')).toBe('');
    expect(iconClassWords('fa fa-fw')).toBe('');
  });
});
