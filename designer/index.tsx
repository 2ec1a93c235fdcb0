import { useLocation } from 'react-router-dom';
import { Designer } from './Designer';
import { GenericPageHost } from './GenericPageHost';

/**
 * The designer's entry (issue 6, item 4), loaded lazily by the shell for `/generic` and `/mapTo`.
 * `/mapTo?moduleCode=&functionCode=` opens a published generic page (a menu entry written on
 * publish); without a page named, both routes open the designer.
 */
export default function DesignerEntry() {
  const location = useLocation();
  const params = new URLSearchParams(location.search);
  const moduleCode = params.get('moduleCode');
  const functionCode = params.get('functionCode');
  if (/\/mapTo$/.test(location.pathname) && moduleCode && functionCode) {
    return <GenericPageHost moduleCode={moduleCode} functionCode={functionCode} />;
  }
  return <Designer />;
}
