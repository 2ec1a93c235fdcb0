import { Result } from 'antd';
import { AuthCard, BackToLogin } from './LoginScreen';

/** The card a sign-up or password reset ends on: its success, and the way back to /login. */
export function AuthDone({ title, testId, message }: { title: string; testId: string; message: string }) {
  return (
    <AuthCard title={title} testId={testId}>
      <Result status="success" title={message} extra={<BackToLogin />} />
    </AuthCard>
  );
}
