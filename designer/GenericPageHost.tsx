import { EnginePage } from '../src/app/engine-services';

/**
 * `/mapTo?moduleCode=&functionCode=`: a published generic page reached from its menu entry (the
 * designer writes that route into `sys_module` on publish), rendered by the engine like any other.
 */
export function GenericPageHost({ moduleCode, functionCode }: { moduleCode: string; functionCode: string }) {
  return <EnginePage moduleCode={moduleCode} functionCode={functionCode} />;
}
