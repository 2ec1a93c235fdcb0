import { Designer } from '../../screens/designer/index';
import { EngineServicesContext, ReducedMotionContext } from '../../../engine/client/index';
import { useEngineHostServices } from '../engine-services';
import { useReducedMotion } from '../reduced-motion';

/**
 * The `/generic` screen: the designer, with the application's engine services for its live
 * preview. The designer never imports the app's services itself (docs/architecture.md).
 */
export default function DesignerPage() {
  const services = useEngineHostServices();
  const reducedMotion = useReducedMotion();
  return (
    <EngineServicesContext.Provider value={services}>
      <ReducedMotionContext.Provider value={reducedMotion}>
        <Designer />
      </ReducedMotionContext.Provider>
    </EngineServicesContext.Provider>
  );
}
