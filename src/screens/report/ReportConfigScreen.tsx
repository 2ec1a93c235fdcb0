export default function ReportConfigScreen() { return null; }
