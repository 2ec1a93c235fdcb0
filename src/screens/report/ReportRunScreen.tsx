export default function ReportRunScreen() { return null; }
