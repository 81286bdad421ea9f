/** The frame every report shares: company, title, parameter bar, CSV and print buttons, a print heading. */
import type { ReactNode } from 'react';
import { Button, PageHeader } from '../../components/ui.js';
import { formatTimestamp } from '../../lib/dates.js';
import { useSettings } from '../../lib/reference.js';

interface ReportFrameProps {
  title: string;
  /** One line saying what the report covers ("All time · USD"), printed at the top too. */
  scope: string;
  parameters: ReactNode;
  onCsv?: (() => void) | undefined;
  csvBusy?: boolean;
  children: ReactNode;
  testId: string;
}

export function ReportFrame({ title, scope, parameters, onCsv, csvBusy, children, testId }: ReportFrameProps) {
  // The company_name setting heads every report, on screen and on paper.
  const companyName = useSettings().data?.company_name ?? null;
  return (
    <div className="report" data-testid={testId}>
      {companyName !== null ? <p className="report__company" data-testid="report-company">{companyName}</p> : null}
      <PageHeader title={title} subtitle={scope}
        actions={<>
          {onCsv ? <Button onClick={onCsv} busy={csvBusy} data-testid="report-export-csv">Export CSV</Button> : null}
          <Button onClick={() => window.print()} data-testid="report-print">Print</Button>
        </>} />
      <div className="filters no-print" aria-label="Report parameters" role="group">{parameters}</div>
      {children}
      <p className="print-only report__printed">Printed {formatTimestamp(new Date().toISOString())}</p>
    </div>
  );
}
