import { ButtonLink, EmptyState, PageHeader } from '../components/ui.js';

export function NotFoundPage() {
  return (
    <>
      <PageHeader title="Page not found" />
      <EmptyState title="There is no page at this address.">
        <ButtonLink to="/" variant="primary">Go to the dashboard</ButtonLink>
      </EmptyState>
    </>
  );
}
