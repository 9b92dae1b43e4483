// dnd-kit's sortable list as its docs show it: each item is a role="button" that starts a drag once the pointer has
// moved 5 px from the press (PointerSensor, listeners on the document) and is moved by a transform; a click without
// moving is a click. The dragged item lets the pointer through (pointer-events: none, as apps do so what is under it
// gets the hover), so the release lands on the list where the item it was dropped on made room.
import { closestCenter, DndContext, PointerSensor, useSensor, useSensors, type DragEndEvent } from '@dnd-kit/core';
import { arrayMove, SortableContext, useSortable, verticalListSortingStrategy } from '@dnd-kit/sortable';
import { useState } from 'react';
import { mount, record } from './shell.js';

function Item({ id }: { id: string }) {
  const { attributes, listeners, setNodeRef, transform, transition, isDragging } = useSortable({ id });
  const moved = transform === null ? undefined : `translate3d(${Math.round(transform.x)}px, ${Math.round(transform.y)}px, 0)`;
  return (
    <li ref={setNodeRef} {...attributes} {...listeners} onClick={() => record('clicked', id)} style={{ transform: moved, transition, pointerEvents: isDragging ? 'none' : undefined, listStyle: 'none', padding: 10, margin: 4, width: 200, border: '1px solid #999', background: 'white' }}>
      {id}
    </li>
  );
}

function App() {
  const [items, setItems] = useState(['Apple', 'Banana', 'Cherry']);
  const sensors = useSensors(useSensor(PointerSensor, { activationConstraint: { distance: 5 } }));
  const onDragEnd = ({ active, over }: DragEndEvent) => {
    if (over === null || active.id === over.id) return;
    const next = arrayMove(items, items.indexOf(String(active.id)), items.indexOf(String(over.id)));
    setItems(next);
    record('order', next);
  };
  return (
    <DndContext sensors={sensors} collisionDetection={closestCenter} onDragEnd={onDragEnd}>
      <SortableContext items={items} strategy={verticalListSortingStrategy}>
        <ul style={{ margin: 40, padding: 0 }}>
          {items.map((id) => (
            <Item key={id} id={id} />
          ))}
        </ul>
      </SortableContext>
    </DndContext>
  );
}

record('order', ['Apple', 'Banana', 'Cherry']);
mount(<App />);
