/** One colour per access channel, shared by the retention curve, the access tables and the audit. */
export const CHANNEL_COLORS: Record<string, string> = {
  created: '#7f7f7f',
  recalled: '#1f77b4',
  searched: '#2ca02c',
  injected: '#9467bd',
  reinforced: '#ff7f0e',
  deref: '#17becf',
  reflected: '#8c564b',
};

/** Every channel but the creation: what the detail view counts as accesses. */
export const ACCESS_CHANNELS_BUT_CREATION = ['recalled', 'searched', 'injected', 'reinforced', 'deref', 'reflected'] as const;

/** The channel's colour marks the border; the text keeps the body colour (chart colours are under AA as text). */
export function ChannelChip({ channel }: { channel: string }) {
  return (
    <span className="channel" style={{ borderColor: CHANNEL_COLORS[channel] ?? '#888' }}>
      {channel}
    </span>
  );
}
