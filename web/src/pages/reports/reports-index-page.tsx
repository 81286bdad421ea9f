import { Card, PageHeader } from '../../components/ui.js';
import { Link } from '../../lib/router.js';

const REPORTS = [
  { to: '/reports/trial-balance', title: 'Trial balance', text: 'Debit and credit totals of every account with activity, per currency.' },
  { to: '/reports/balance-sheet', title: 'Balance sheet', text: 'Assets, liabilities and equity as of a date or the end of a period.' },
  { to: '/reports/income-statement', title: 'Income statement', text: 'Revenue, expenses and net income of a period or all time.' },
  { to: '/reports/general-ledger', title: 'General ledger', text: 'One account’s lines with a running balance.' },
  { to: '/reports/aged-balances', title: 'Aged balances', text: 'Receivables or payables per customer or supplier, by age: current, 1–30, 31–60, 61–90, over 90 days.' },
];

export function ReportsIndexPage() {
  return (
    <>
      <PageHeader title="Reports" />
      <div className="grid grid--cards">
        {REPORTS.map((report) => (
          <Card key={report.to} title={<Link to={report.to}>{report.title}</Link>}>
            <p className="muted">{report.text}</p>
          </Card>
        ))}
      </div>
    </>
  );
}
