// react-aria's slider hooks as its docs show them: the thumb is a <div> drawn over an <input type=range> that
// VisuallyHidden clips to a pixel; pressing the track or the thumb moves the value, dragging follows window listeners.
import { useRef, type RefObject } from 'react';
import { useNumberFormatter, useSlider, useSliderThumb, VisuallyHidden } from 'react-aria';
import { useSliderState, type SliderState } from 'react-stately';
import { mount, record } from './shell.js';

function Thumb({ state, trackRef }: { state: SliderState; trackRef: RefObject<HTMLDivElement | null> }) {
  const inputRef = useRef<HTMLInputElement>(null);
  const { thumbProps, inputProps } = useSliderThumb({ index: 0, trackRef, inputRef }, state);
  const left = `${state.getThumbPercent(0) * 100}%`;
  return (
    <div {...thumbProps} style={{ position: 'absolute', top: 5, left, transform: 'translateX(-50%)', width: 20, height: 20, borderRadius: 10, background: '#555' }}>
      <VisuallyHidden>
        <input ref={inputRef} {...inputProps} />
      </VisuallyHidden>
    </div>
  );
}

function App() {
  const trackRef = useRef<HTMLDivElement>(null);
  const props = { label: 'Brightness', defaultValue: 40, onChange: (value: number | number[]) => record('brightness', value) };
  const state = useSliderState({ ...props, numberFormatter: useNumberFormatter() });
  const { groupProps, trackProps, labelProps, outputProps } = useSlider(props, state, trackRef);
  return (
    <div {...groupProps} style={{ margin: 60, width: 300 }}>
      <label {...labelProps}>Brightness</label> <output {...outputProps}>{state.getThumbValueLabel(0)}</output>
      <div {...trackProps} ref={trackRef} style={{ position: 'relative', height: 30 }}>
        <div style={{ position: 'absolute', top: 13, height: 4, width: '100%', background: '#ccc' }} />
        <Thumb state={state} trackRef={trackRef} />
      </div>
    </div>
  );
}

record('brightness', 40);
mount(<App />);
