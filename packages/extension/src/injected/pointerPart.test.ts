// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import { useFakeRendering } from '../testing/fakeRendering.js';
import { reaches } from './hitTest.js';
import { drawnPartOf } from './pointerPart.js';

useFakeRendering();

const byId = (id: string): Element => {
  const element = document.getElementById(id);
  if (element === null) throw new Error(`no #${id}`);
  return element;
};
const CLIPPED = 'position: absolute; clip: rect(0px, 0px, 0px, 0px)';

describe('the drawn part a hidden native control is pointed at through', () => {
  it('is the thumb around a clipped range input, and a press there reaches the input', () => {
    document.body.innerHTML = `<span id="track" data-box="0 40 200 4"><span id="thumb" data-box="40 32 20 20"><span id="label" data-box="38 10 24 20">20</span><input id="range" type="range" style="${CLIPPED}" data-box="40 32 20 20"></span></span><button id="other" data-box="300 32 20 20"></button>`;
    expect(drawnPartOf(byId('range'))).toBe(byId('thumb'));
    expect(reaches(byId('thumb'), byId('range'))).toBe(true);
    expect(reaches(byId('label'), byId('range'))).toBe(true);
    // Not the track around the thumb, not another control.
    expect(reaches(byId('track'), byId('range'))).toBe(false);
    expect(reaches(byId('other'), byId('range'))).toBe(false);
  });

  it('is none for a control that shows itself, one not rendered, or one in a label (the label forwards clicks)', () => {
    document.body.innerHTML = `<span id="a" data-box="0 0 20 20"><input id="shown" type="range" data-box="0 0 20 20"></span><span data-box="0 0 20 20"><input id="gone" type="range" style="display: none"></span><label data-box="0 0 20 20"><input id="labelled" type="checkbox" style="${CLIPPED}" data-box="0 0 20 20"></label>`;
    for (const id of ['shown', 'gone', 'labelled']) expect(drawnPartOf(byId(id))).toBeNull();
  });

  it('is none when the part also holds another control or is too big to be a handle', () => {
    document.body.innerHTML = `<span data-box="0 0 20 20"><input id="twin" type="range" style="${CLIPPED}" data-box="0 0 20 20"><input type="range" style="${CLIPPED}" data-box="0 0 20 20"></span><div data-box="0 0 400 200"><input id="region" type="checkbox" style="${CLIPPED}" data-box="10 10 20 20"></div>`;
    expect(drawnPartOf(byId('twin'))).toBeNull();
    expect(drawnPartOf(byId('region'))).toBeNull();
  });

  it('skips wrappers with no box of their own and must hold the control', () => {
    document.body.innerHTML = `<div id="handle" data-box="10 10 24 24"><span data-box="0 0 0 0"><input id="tiny" type="checkbox" data-box="20 20 1 1"></span></div><div data-box="100 100 24 24"><input id="away" type="checkbox" data-box="10 10 1 1"></div>`;
    expect(drawnPartOf(byId('tiny'))).toBe(byId('handle'));
    expect(drawnPartOf(byId('away'))).toBeNull();
  });

  it("is the thumb around react-aria's VisuallyHidden wrapper (1 px, clipped, holding only the input); never through a wrapper that clips nothing or holds more", () => {
    const hidden = 'position: absolute; overflow: hidden; clip: rect(0px, 0px, 0px, 0px)';
    document.body.innerHTML =
      `<div id="thumb" data-box="100 10 20 20"><div style="${hidden}" data-box="99 9 1 1"><input id="wrapped" type="range" data-box="99 9 129 21"></div></div>` +
      `<div data-box="200 10 20 20"><div style="overflow: visible" data-box="199 9 0 0"><input id="overflowing" type="range" data-box="199 9 129 21"></div></div>` +
      `<div data-box="300 10 20 20"><div style="${hidden}" data-box="299 9 1 1"><input id="crowded" type="range" data-box="299 9 129 21"><span></span></div></div>`;
    expect(drawnPartOf(byId('wrapped'))).toBe(byId('thumb'));
    expect(reaches(byId('thumb'), byId('wrapped'))).toBe(true);
    expect(drawnPartOf(byId('overflowing'))).toBeNull();
    expect(drawnPartOf(byId('crowded'))).toBeNull();
  });
});

