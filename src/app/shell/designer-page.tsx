import { Designer } from '../../screens/designer/index';
import { EngineServicesContext } from '../../../engine/client/index';
import { useEngineHostServices } from '../engine-services';

/**
 * The `/generic` screen: the designer, with the application's engine services for its live
 * preview. The designer never imports the app's services itself (docs/architecture.md).
 */
export default function DesignerPage() {
  const services = useEngineHostServices();
  return (
    <EngineServicesContext.Provider value={services}>
      <Designer />
    </EngineServicesContext.Provider>
  );
}
