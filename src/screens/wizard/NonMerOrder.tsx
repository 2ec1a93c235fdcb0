import OrderWizard from './OrderWizard';

/** The non-merchandise order wizard (`/nonMerOrder`). */
export default function NonMerOrder() {
  return <OrderWizard kind="nonMer" />;
}
