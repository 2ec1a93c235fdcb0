import { Tooltip } from 'antd';
import { LIST_TEXT_LIMIT, truncateText } from './truncateText';

/** Long text in a list: cut with an ellipsis past the limit, the full text on hover. */
export function Ellipsis({ text, limit = LIST_TEXT_LIMIT }: { text: string | null | undefined; limit?: number }) {
  const value = text ?? '';
  const shown = truncateText(value, limit);
  if (shown === value) return <span>{value}</span>;
  return (
    <Tooltip title={value}>
      <span title={value} data-full-text={value}>
        {shown}
      </span>
    </Tooltip>
  );
}
