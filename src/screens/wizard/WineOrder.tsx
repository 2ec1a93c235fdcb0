import OrderWizard from './OrderWizard';

/** The wine order wizard (`/wineOrder`). */
export default function WineOrder() {
  return <OrderWizard kind="wine" />;
}
