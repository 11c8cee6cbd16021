/** A small drawing of an edge type as the graph draws it: its colour, line style and arrow head. */
import { EDGE_LOOKS, type ArrowShape } from './style.js';

const W = 34;
const H = 12;
const Y = H / 2;

function arrowHead(shape: ArrowShape, color: string) {
  const x = W - 2;
  switch (shape) {
    case 'triangle':
      return <path d={`M${x - 7},${Y - 4} L${x},${Y} L${x - 7},${Y + 4} Z`} fill={color} />;
    case 'vee':
      return <path d={`M${x - 7},${Y - 4} L${x},${Y} L${x - 7},${Y + 4} L${x - 4},${Y} Z`} fill={color} />;
    case 'triangle-backcurve':
      return <path d={`M${x - 7},${Y - 4} L${x},${Y} L${x - 7},${Y + 4} Q${x - 4},${Y} ${x - 7},${Y - 4} Z`} fill={color} />;
    case 'tee':
      return <rect x={x - 2} y={Y - 5} width={2.5} height={10} fill={color} />;
    case 'diamond':
      return <path d={`M${x - 8},${Y} L${x - 4},${Y - 4} L${x},${Y} L${x - 4},${Y + 4} Z`} fill={color} />;
    case 'circle':
      return <circle cx={x - 3} cy={Y} r={3.5} fill={color} />;
    case 'square':
      return <rect x={x - 6} y={Y - 3} width={6} height={6} fill={color} />;
    case 'chevron':
      return <path d={`M${x - 6},${Y - 4} L${x},${Y} L${x - 6},${Y + 4}`} fill="none" stroke={color} strokeWidth={2} />;
    default:
      return null;
  }
}

export function EdgeSwatch({ type }: { type: string }) {
  const look = EDGE_LOOKS[type] ?? { color: '#8c8c8c', line: 'dashed', arrow: 'triangle' };
  const dash = look.line === 'dashed' ? '5 3' : look.line === 'dotted' ? '1.5 3' : undefined;
  return (
    <svg width={W} height={H} aria-hidden="true" data-edge-look={`${look.line} ${look.arrow}`}>
      <line x1={1} y1={Y} x2={look.arrow === 'none' ? W - 1 : W - 7} y2={Y} stroke={look.color} strokeWidth={2} strokeDasharray={dash} strokeLinecap={look.line === 'dotted' ? 'round' : 'butt'} />
      {arrowHead(look.arrow, look.color)}
    </svg>
  );
}
