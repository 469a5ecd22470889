#!/usr/bin/env perl
# Build test/fixtures/bounces/corpus.csv (and providers/*.json) from Sisimai's
# public set of real bounce emails.
#
# Usage:
#   perl bench/classify/build-corpus.pl <set-of-emails checkout> <rb-sisimai checkout> [<output dir>]
#
#   <set-of-emails checkout>  a checkout of github.com/sisimai/set-of-emails
#                             (the emails read are maildir/bsd/*.eml)
#   <rb-sisimai checkout>     a checkout of github.com/sisimai/rb-sisimai; its
#                             test/public/*.rb hold the expected [status, reply
#                             code, reason, hardbounce] per recipient, and its
#                             own copy set-of-emails/maildir/bsd is used to map
#                             the names those tests use to today's file names
#                             (by content; several files were renamed upstream)
#   <output dir>              default: test/fixtures/bounces next to this script's
#                             repository root
#
# Needs Perl's Sisimai (4.25 was used) and core modules only.
#
# Diagnostic texts, recipients and (where rb-sisimai has no expectation) the
# status/reason come from Perl's Sisimai. The category starts from a fixed map of
# Sisimai reasons; where a postmaster reading the text would file it elsewhere,
# the __DATA__ section at the end overrides the category and gives the note.
# Those overrides were written by reading each diagnostic; keep them by hand.
use strict;
use warnings;
use utf8;
use File::Basename qw(dirname);
use File::Spec;
use Digest::SHA qw(sha1_hex);
use Encode qw(decode encode is_utf8);
use JSON::PP;
use Sisimai;

my ($soedir, $rbdir, $outdir) = @ARGV;
die "usage: $0 <set-of-emails dir> <rb-sisimai dir> [<output dir>]\n" unless $soedir && $rbdir;
my $maildir = -d "$soedir/maildir/bsd" ? "$soedir/maildir/bsd" : $soedir;
die "no maildir/bsd under $soedir\n" unless -d $maildir;
my $rbtests = -d "$rbdir/test/public" ? "$rbdir/test/public" : $rbdir;
my $rbmails = "$rbdir/set-of-emails/maildir/bsd";
$outdir //= File::Spec->catdir(dirname(File::Spec->rel2abs(__FILE__)), '..', '..', 'test', 'fixtures', 'bounces');
my $dumpmode = ($ENV{CORPUS_DUMP} // '') ne '';

# ---------------------------------------------------------------------------
# Category of each Sisimai reason (by meaning)
my %CATEGORY = (
    (map { $_ => 'invalid_address' }     qw(userunknown hostunknown hasmoved notaccept)),
    (map { $_ => 'mailbox_unavailable' } qw(mailboxfull suspend filtered)),
    (map { $_ => 'sender_blocked' }      qw(blocked badreputation rejected policyviolation securityerror
                                            spamdetected virusdetected contenterror norelaying authfailure
                                            requireptr notcompliantrfc ratelimited speeding toomanyconn
                                            failedstarttls mesgtoobig exceedlimit suppressed)),
    (map { $_ => 'delivery_failure' }    qw(expired networkerror systemerror systemfull mailererror syntaxerror)),
    (map { $_ => 'auto_reply' }          qw(vacation)),
    (map { $_ => 'unknown' }             qw(undefined onhold)),
);

# Engine names as Sisimai spells them (file names are lower case)
my %ENGINE;
for my $e (qw(ARF RFC3464 RFC3834 Activehunter Amavis AmazonSES AmazonWorkMail Aol ApacheJames Barracuda
              Bigfoot Biglobe Courier Domino DragonFly EZweb EinsUndEins Exchange2003 Exchange2007 Exim FML
              Facebook GMX GSuite Gmail GoogleGroups GoogleWorkspace IMailServer InterScanMSS KDDI MXLogic
              MailFoundry MailMarshal MailMarshalSMTP MailRu McAfee MessageLabs MessagingServer Mimecast Notes
              Office365 OpenSMTPD Outlook Postfix PowerMTA ReceivingSES SendGrid Sendmail SurfControl
              TrendMicro V5sendmail Verizon X1 X2 X3 X4 X5 X6 Yahoo Yandex Zoho mFILTER qmail
              Apple Cloudflare Cox FrancePTT GoDaddy Google IUA NTTDOCOMO Spectrum Tencent YahooInc Microsoft)) {
    $ENGINE{lc $e} = $e;
}

# ---------------------------------------------------------------------------
# Expectations from rb-sisimai: "<file stem>" => [[status, replycode, reason, hard], ...]
my %EXPECT;
opendir(my $th, $rbtests) or die "cannot read $rbtests: $!\n";
for my $f (sort grep { /\.rb\z/ } readdir $th) {
    open(my $fh, '<', "$rbtests/$f") or die $!;
    my $text = do { local $/; <$fh> };
    close $fh;
    next unless $text =~ /IsExpected\s*=/;
    my ($kind)   = $text =~ /module\s+(Lhost|Rhost)EngineTest::Public/ or next;
    my ($module) = $text =~ /^\s+module\s+(\w+)\s*$/m or next;
    $ENGINE{lc $module} //= $module;
    my $prefix = $kind eq 'Rhost' ? 'rhost-' : (grep { $module eq $_ } qw(ARF RFC3464 RFC3834)) ? '' : 'lhost-';
    my ($body) = $text =~ /IsExpected\s*=\s*\{(.*?)\}\s*\n\s*end\b/s or next;
    while ($body =~ /'(\d+)'\s*=>\s*\[(.*?)\]\s*\]/gs) {
        my ($n, $list) = ($1, $2);
        my @recs;
        while ($list =~ /\[\s*'([^']*)'\s*,\s*'([^']*)'\s*,\s*'([^']*)'\s*,\s*(true|false)/g) {
            push @recs, [$1, $2, $3, $4 eq 'true' ? 1 : 0];
        }
        $EXPECT{sprintf('%s%s-%02d', $prefix, lc $module, $n)} = \@recs if @recs;
    }
}
closedir $th;

# Content hash -> stems of rb-sisimai's copy of the emails, to follow renames
my %RBBYHASH;
my %RBSTEMS;
if (-d $rbmails) {
    opendir(my $mh, $rbmails) or die $!;
    for my $f (sort grep { /\.eml\z/ } readdir $mh) {
        (my $stem = $f) =~ s/\.eml\z//;
        push @{ $RBBYHASH{ filehash("$rbmails/$f") } }, $stem;
        $RBSTEMS{$stem} = 1;
    }
    closedir $mh;
}
# Files that were renamed upstream AND edited since rb-sisimai's copy (so the
# hash does not match); their recipients and order were checked by hand.
my %RENAMED = (
    'rhost-aol-03' => 'lhost-aol-03', 'rhost-aol-04' => 'lhost-aol-04', 'rhost-aol-05' => 'lhost-aol-05',
    'rhost-aol-06' => 'lhost-aol-06', 'rhost-messagelabs-01' => 'lhost-messagelabs-01',
    'lhost-exim-56' => 'lhost-exim-56', 'lhost-postfix-30' => 'lhost-postfix-30',
);

sub filehash {
    my $path = shift;
    open(my $fh, '<:raw', $path) or die "$path: $!";
    my $data = do { local $/; <$fh> };
    close $fh;
    return sha1_hex($data);
}

{
    package Local::Fact;
    sub new { my ($c, %a) = @_; return bless {%a}, $c }
    sub recipient { my $s = shift; return bless({ address => $s->{recipient} }, 'Local::Address') }
    sub diagnosticcode { $_[0]->{diagnosis} }
    sub deliverystatus { '' }
    sub replycode { '' }
    sub reason { '' }
    sub rhost { $_[0]->{rhost} // '' }
    package Local::Address;
    sub address { $_[0]->{address} }
}

sub dragonfly {
    my $path = shift;
    open(my $fh, '<:raw', $path) or die "$path: $!";
    my $text = do { local $/; <$fh> };
    close $fh;
    $text =~ s/\r\n?/\n/g;
    my ($body) = $text =~ /\n\n(.*)\z/s or return [];
    $body =~ s/^(?:Original message follows\.|Message headers follow).*\z//ms;
    my (@facts, $v, $reading);
    for my $e (split /\n/, $body) {
        if (!$reading) { $reading = 1 if $e =~ /^This is the DragonFly Mail Agent/; next }
        next if $e eq '';
        if ($e =~ /^There was an error delivering your mail to <([^>]+)>/) {
            push @facts, ($v = { recipient => $1, diagnosis => '' });
            next;
        }
        next unless $v;
        $v->{diagnosis} .= ' ' . $e;
        $v->{rhost} //= ($e =~ /^(\S+) \[[^\]]+\] did not like our /)[0];
    }
    return [map { Local::Fact->new(%$_) } @facts];
}

sub dsn_diagnostic {
    my ($path, $rcpt) = @_;
    open(my $fh, '<:raw', $path) or die "$path: $!";
    my $text = do { local $/; <$fh> };
    close $fh;
    $text =~ s/\r\n?/\n/g;
    for my $block (split /\n(?=Final-Recipient:)/i, $text) {
        next unless $block =~ /\AFinal-Recipient:\s*[^;\n]*;\s*<?\Q$rcpt\E>?\s*\n/i;
        my ($d) = $block =~ /^Diagnostic-Code:\s*(.*(?:\n[ \t].*)*)/mi or next;
        $d =~ s/\A[A-Za-z-]+;\s*//;
        $d =~ s/\s+/ /g; $d =~ s/\A //; $d =~ s/ \z//;
        return decode('UTF-8', $d);
    }
    return '';
}

sub expectation_for {
    my ($stem, $path) = @_;
    my @names;
    my $same = $RBBYHASH{ filehash($path) } // [];
    push @names, $stem if grep { $_ eq $stem } @$same;   # same name, same content
    push @names, grep { $_ ne $stem } @$same;          # renamed, same content
    push @names, $RENAMED{$stem} if $RENAMED{$stem};   # renamed and edited
    for my $n (@names) { return ($EXPECT{$n}, $n) if $EXPECT{$n} }
    return (undef, undef);
}

# ---------------------------------------------------------------------------
# Overrides: id => [category, note]
my %OVERRIDE;
my %PROVIDER;   # provider => [ids]
while (my $line = <DATA>) {
    chomp $line;
    next if $line =~ /^\s*(?:#|\z)/;
    if ($line =~ /^provider\s+(\w+)\s+(.+)$/) { push @{ $PROVIDER{$1} }, split(/\s+/, $2); next }
    my ($id, $cat, $note) = split(/\t/, $line, 3);
    die "bad override line: $line\n" unless $id && $cat && defined $note && $note ne '';
    die "unknown category $cat\n" unless grep { $cat eq $_ } values %CATEGORY;
    $OVERRIDE{$id} = [$cat, $note];
}

# ---------------------------------------------------------------------------
# Parse each email (rhost-* first: when two files hold the same bounce, the row
# names the remote host engine; then lhost-*, rfc3464, the rest)
my $order = sub {
    my $s = shift;
    return $s =~ /^rhost-/ ? 0 : $s =~ /^lhost-/ ? 1 : $s =~ /^rfc3464/ ? 2 : 3;
};
opendir(my $dh, $maildir) or die $!;
my @stems = map { s/\.eml\z//r } grep { /\.eml\z/ } readdir $dh;
closedir $dh;
@stems = sort { $order->($a) <=> $order->($b) || $a cmp $b } @stems;

my (@rows, %seen, %stat);
for my $stem (@stems) {
    my $path = "$maildir/$stem.eml";
    my ($expect, $expname) = expectation_for($stem, $path);
    my $facts = do { local $SIG{__WARN__} = sub {}; Sisimai->make($path, 'delivered' => 1) } || [];
    # Perl's Sisimai 4.25 predates the DragonFly engine: read those the way
    # rb-sisimai's Sisimai::Lhost::DragonFly does (recipient, then every
    # non-empty line up to the original message, joined with spaces).
    $facts = dragonfly($path) if !@$facts && $stem =~ /^lhost-dragonfly-/;
    my $nexp = $expect ? scalar @$expect : 0;
    # Sisimai 4.25 reports rhost-cox-01's one recipient twice (from the body and
    # from the DSN part); rb-sisimai expects one. Keep the first, the full text.
    splice(@$facts, $nexp) if $stem eq 'rhost-cox-01' && $nexp && @$facts > $nexp;
    my $n = $nexp > @$facts ? $nexp : scalar @$facts;
    $stat{files}++;
    $stat{noexpect}++ unless $expect;
    $stat{countdiff}++, print STDERR "count differs: $stem rb=$nexp perl=", scalar(@$facts), "\n"
        if $expect && $nexp != @$facts;

    my ($kind, $engine) = $stem =~ /^(lhost|rhost)-(.+)-\d+\z/ ? ($1, $2) : ('', $stem =~ s/-\d+\z//r);
    my $mta = $ENGINE{lc $engine} // $engine;

    my $raw = do { local $/; open my $fh, '<:raw', $path or die "$path: $!"; <$fh> };
    for my $i (0 .. $n - 1) {
        my $f = $facts->[$i];
        my $x = $expect ? $expect->[$i] : undef;
        my ($pstatus, $preply, $preason) = $f ? ($f->deliverystatus // '', $f->replycode // '', $f->reason // '') : ('', '', '');
        my $status = $x ? $x->[0] : $pstatus;
        my $reply  = $x ? $x->[1] : $preply;
        my $reason = $x ? $x->[2] : $preason;
        my $diag   = $f ? ($f->diagnosticcode // '') : '';
        $diag = decode('UTF-8', $diag) unless is_utf8($diag);
        $diag =~ s/\s+/ /g; $diag =~ s/\A //; $diag =~ s/ \z//;
        my $rcpt = $f && $f->recipient ? ($f->recipient->address // '') : '';
        # Sisimai 4.25 sometimes gives one recipient the error text of another
        # recipient of the same email (lhost-postfix-02, -13, lhost-sendmail-02):
        # then take this recipient's own Diagnostic-Code field from the DSN.
        if ($rcpt ne '' && @$facts > 1) {
            my @named = map { lc } $diag =~ /<([^<>\s]+\@[^<>\s]+)>/g;
            my %others = map { lc($_->recipient->address // '') => 1 } grep { $_ != $f } @$facts;
            delete $others{ lc $rcpt };
            if (grep({ $others{$_} } @named) && !grep({ $_ eq lc $rcpt } @named)) {
                my $own = dsn_diagnostic($path, $rcpt);
                if ($own ne '') { $diag = $own; $stat{own_dsn_text}++ }
            }
        }
        $diag = substr($diag, 0, 2000) if length $diag > 2000;
        # Sisimai fills in a status or reply code where the email has none (its own X.0.9xx codes
        # among them): only what the email itself carries is evidence a provider could pass on.
        $status = '' unless $status ne '' && index($raw, $status) >= 0;
        $reply  = '' unless $reply ne '' && index($raw, $reply) >= 0;
        my $id = sprintf('sisimai-%s-%d', $stem, $i + 1);

        my $row = {
            id => $id, source => sprintf('sisimai set-of-emails maildir/bsd/%s.eml#%d', $stem, $i + 1),
            mta => $mta, status => $status, reply_code => $reply, diagnostic => $diag,
            sisimai_reason => $reason, recipient => $rcpt, perl_reason => $preason, perl_status => $pstatus,
            expect => $expname // '', rhost => $f ? ($f->rhost // '') : '',
        };
        if ($reason eq 'delivered' || $reason eq 'feedback') { $stat{drop_delivered_feedback}++; next }
        if ($diag eq '' && $status eq '')                    { $stat{drop_empty}++; next }
        my $key = lc($diag) . "\t" . $status;
        if ($seen{$key}) {
            $stat{drop_duplicate}++;
            print STDERR "duplicate: $id of $seen{$key}\n" if $dumpmode;
            next;
        }
        $seen{$key} = $id;
        my $cat = $CATEGORY{$reason} // 'unknown';
        my $note = '';
        if (my $o = $OVERRIDE{$id}) { ($cat, $note) = @$o; $stat{overridden}++ }
        $row->{category} = $cat;
        $row->{note} = $note;
        push @rows, $row;
    }
}
my %ids = map { $_->{id} => 1 } @rows;
for my $id (keys %OVERRIDE) { warn "override for unknown row $id\n" unless $ids{$id} }

if ($dumpmode) {
    # Review dump: one row per line, tab separated
    binmode STDOUT, ':encoding(UTF-8)';
    print join("\t", @{$_}{qw(id mta status reply_code sisimai_reason perl_reason category expect diagnostic recipient)}), "\n" for @rows;
    print STDERR join(' ', map { "$_=$stat{$_}" } sort keys %stat), "\n";
    exit 0;
}

# ---------------------------------------------------------------------------
# corpus.csv (RFC 4180: CRLF, fields quoted when needed)
sub csvfield {
    my $v = shift // '';
    return $v unless $v =~ /[",\r\n]/ || $v =~ /\A\s|\s\z/;
    $v =~ s/"/""/g;
    return qq("$v");
}
mkdir $outdir unless -d $outdir;
my @cols = qw(id source mta status reply_code diagnostic sisimai_reason category note);
open(my $out, '>:raw', "$outdir/corpus.csv") or die "$outdir/corpus.csv: $!";
print $out join(',', @cols), "\r\n";
print $out encode('UTF-8', join(',', map { csvfield($_) } @{$_}{@cols})) . "\r\n" for @rows;
close $out;

my %bycat;
$bycat{ $_->{category} }++ for @rows;
printf STDERR "rows=%d notes=%d %s\n", scalar @rows, scalar(grep { $_->{note} ne '' } @rows),
    join(' ', map { "$_=$bycat{$_}" } sort keys %bycat);
print STDERR join(' ', map { "$_=$stat{$_}" } sort keys %stat), "\n";

# ---------------------------------------------------------------------------
# providers/<name>.json
my %byid = map { $_->{id} => $_ } @rows;
my $json = JSON::PP->new->utf8->canonical->pretty->indent_length(2)->space_before(0);
my $seq = 0;
my $fresh = 0;
mkdir "$outdir/providers" unless -d "$outdir/providers";
for my $provider (qw(ses sendgrid postmark mailgun resend)) {
    my @items;
    for my $id (@{ $PROVIDER{$provider} // [] }) {
        my $r = $byid{$id} or die "provider $provider: no corpus row $id\n";
        $seq++;
        push @items, { corpus_id => $id, payload => payload($provider, $r, $seq) };
    }
    open(my $pf, '>:raw', "$outdir/providers/$provider.json") or die $!;
    print $pf $json->encode(\@items);
    close $pf;
}

sub uuid {
    my ($provider, $seq) = @_;
    my $h = sha1_hex("$provider-$seq");
    return join('-', substr($h, 0, 8), substr($h, 8, 4), '4' . substr($h, 13, 3), '8' . substr($h, 17, 3), substr($h, 20, 12));
}

# SMTP class (4 or 5) as a provider sees it: the reply code, else the first
# reply code in the text, else the enhanced status; 0 when there is none.
sub smtpclass {
    my $r = shift;
    return substr($r->{reply_code}, 0, 1) + 0 if $r->{reply_code} =~ /\A[45]/;
    return $1 + 0 if $r->{diagnostic} =~ /(?:\A|[\s:'"\[])([45])\d\d(?=[\s\-'"\]]|\z)/;
    return substr($r->{status}, 0, 1) + 0 if $r->{status} =~ /\A[45]/;
    return 0;
}

sub sendgrid_classification {
    my $r = shift;
    my %map = (
        invalid_address => 'Invalid Address', mailbox_unavailable => 'Mailbox Unavailable',
        delivery_failure => 'Technical', auto_reply => 'Unclassified', unknown => 'Unclassified',
    );
    return $map{ $r->{category} } if $r->{category} ne 'sender_blocked';
    my $t = lc $r->{diagnostic};
    return 'Frequency or Volume' if $t =~ /rate|too many|frequency|volume|quota|per hour|this hour/ && $t !~ /reputation/;
    return 'Technical'           if $t =~ /dmarc|spf|dkim|authenticat|ptr|reverse dns|rdns|relay|tls/;
    return 'Content'             if $t =~ /spam|content|virus|too large|too big|size|header|security polic/;
    return 'Reputation';
}

sub payload {
    my ($provider, $r, $seq) = @_;
    my $rcpt = $r->{recipient} ne '' ? $r->{recipient} : sprintf('rcpt-%d@example.net', ++$fresh);
    $r->{recipient} = $rcpt;
    my $class = smtpclass($r);
    die "$r->{id}: no SMTP class for $provider\n" unless $class || ($provider eq 'postmark' && $r->{category} eq 'auto_reply');
    my $status = $r->{status} ne '' ? $r->{status} : ($class == 4 ? '4.0.0' : '5.0.0');
    my $reply = $r->{reply_code} ne '' ? $r->{reply_code} : ($r->{diagnostic} =~ /(?:\A|[\s:'"\[])([45]\d\d)(?=[\s\-'"\]]|\z)/ ? $1 : ($class == 4 ? '450' : '550'));
    my $diag = $r->{diagnostic};
    my $msgid = sprintf('%s-%04d', $provider, $seq);
    if ($provider eq 'ses') {
        return {
            notificationType => 'Bounce',
            bounce => {
                bounceType => $class == 4 ? 'Transient' : 'Permanent', bounceSubType => 'General',
                bouncedRecipients => [{ emailAddress => $rcpt, status => $status, action => 'failed',
                                        diagnosticCode => "smtp; $diag" }],
                timestamp => '2026-11-20T10:00:00.000Z',
                feedbackId => sprintf('0100019a%08x-%s-000000', $seq, uuid($provider, $seq)),
                remoteMtaIp => '203.0.113.9', reportingMTA => 'dsn; a8-1.smtp-out.amazonses.com',
            },
            mail => {
                timestamp => '2026-11-20T09:59:58.000Z',
                messageId => sprintf('0100019a%08x-%s-000000', $seq, uuid("$provider-msg", $seq)),
                source => 'sender@example.com', destination => [$rcpt], tags => {},
            },
        };
    }
    if ($provider eq 'sendgrid') {
        my $block = $class == 4 || $r->{category} eq 'sender_blocked';
        return {
            email => $rcpt, timestamp => 1763632800, event => 'bounce',
            type => $block ? 'blocked' : 'bounce', status => $status, reason => $diag,
            bounce_classification => sendgrid_classification($r),
            sg_event_id => sprintf('c2ctZXZlbnQt%04d', $seq),
            sg_message_id => sprintf('sgmsg%04d.filter0001.1.2.0', $seq),
        };
    }
    if ($provider eq 'postmark') {
        # Postmark files auto-replies under their own type, AutoResponder
        my ($type, $code, $name, $desc) =
              $r->{category} eq 'auto_reply' && !$class
            ? ('AutoResponder', 2, 'Auto responder', 'Automatic email responder (ex: "Out of Office" or "On Vacation").')
            : $class == 5
            ? ('HardBounce', 1, 'Hard bounce', 'The server was unable to deliver your message (ex: unknown user, mailbox not found).')
            : ('SoftBounce', 4096, 'Soft bounce', 'Unable to temporarily deliver message (i.e. mailbox full, account disabled, exceeds quota, out of disk space).');
        return {
            RecordType => 'Bounce', ID => 4200000000 + $seq, Type => $type, TypeCode => $code, Name => $name,
            Tag => '', MessageID => uuid($provider, $seq), ServerID => 23, MessageStream => 'outbound',
            Description => $desc, Details => "smtp;$diag", Email => $rcpt, From => 'sender@example.com',
            BouncedAt => '2026-11-20T10:00:00Z', DumpAvailable => JSON::PP::false,
            Inactive => $type eq 'HardBounce' ? JSON::PP::true : JSON::PP::false, CanActivate => JSON::PP::true,
            Subject => 'Test', Metadata => {},
        };
    }
    if ($provider eq 'mailgun') {
        return {
            signature => { timestamp => '1763632800', token => sha1_hex("token-$seq") . substr(sha1_hex("t2-$seq"), 0, 10),
                           signature => sha1_hex("sig-$seq") . substr(sha1_hex("s2-$seq"), 0, 24) },
            'event-data' => {
                event => 'failed', id => sprintf('mgEvt%04dAbCdEfGh', $seq), timestamp => 1763632800.1,
                recipient => $rcpt, severity => $class == 4 ? 'temporary' : 'permanent',
                reason => $class == 4 ? 'generic' : 'bounce',
                'delivery-status' => { code => $reply + 0, 'enhanced-code' => $status, message => $diag,
                                       description => '', 'mx-host' => 'mx.example.net', 'attempt-no' => 1 },
                message => { headers => { 'message-id' => sprintf('%s@example.com', $msgid) } },
                'user-variables' => {},
            },
        };
    }
    if ($provider eq 'resend') {
        return {
            type => 'email.bounced', created_at => '2026-11-20T10:00:00.000Z',
            data => {
                email_id => uuid($provider, $seq), from => 'sender@example.com', to => [$rcpt], subject => 'Test',
                created_at => '2026-11-20T09:59:58.000Z',
                bounce => { type => $class == 4 ? 'Transient' : 'Permanent', subType => 'General', message => $diag },
            },
        };
    }
    die "unknown provider $provider\n";
}

__DATA__
# Overrides: <id> TAB <category> TAB <note>
# Provider selections: provider <name> <corpus id> ...
sisimai-lhost-googlegroups-01-1	unknown	text says the group may not exist or the sender may not post to it, and does not say which; Sisimai: rejected
sisimai-lhost-googlegroups-02-1	unknown	text says the group may not exist or the sender may not post to it, and does not say which; Sisimai: rejected
sisimai-lhost-googlegroups-03-1	unknown	text says the group may not exist or the sender may not post to it, and does not say which; Sisimai: rejected
sisimai-lhost-googlegroups-04-1	unknown	text says the group may not exist or the sender may not post to it, and does not say which; Sisimai: rejected
sisimai-lhost-googlegroups-05-1	unknown	text says the group may not exist or the sender may not post to it, and does not say which; Sisimai: rejected
sisimai-lhost-googlegroups-06-1	unknown	text says the group may not exist or the sender may not post to it, and does not say which; Sisimai: rejected
sisimai-lhost-googlegroups-07-1	unknown	text says the group may not exist or the sender may not post to it, and does not say which; Sisimai: rejected
sisimai-lhost-googlegroups-08-1	unknown	text says the group may not exist or the sender may not post to it, and does not say which; Sisimai: rejected
sisimai-lhost-googlegroups-09-1	unknown	text says the group may not exist or the sender may not post to it, and does not say which; Sisimai: rejected
sisimai-lhost-googlegroups-10-1	unknown	text says the group may not exist or the sender may not post to it, and does not say which; Sisimai: rejected
sisimai-lhost-googlegroups-11-1	unknown	text says the group may not exist or the sender may not post to it, and does not say which; Sisimai: rejected
sisimai-lhost-googlegroups-12-1	unknown	text says the group may not exist or the sender may not post to it, and does not say which; Sisimai: rejected
sisimai-lhost-googlegroups-13-1	unknown	text says the group may not exist or the sender may not post to it, and does not say which; Sisimai: rejected
sisimai-lhost-googlegroups-14-1	unknown	text says the group may not exist or the sender may not post to it, and does not say which; Sisimai: rejected
sisimai-rhost-apple-04-1	mailbox_unavailable	text says inactive email address (the account exists but is deactivated); Sisimai: userunknown
sisimai-lhost-postfix-80-1	sender_blocked	text says the MAIL FROM domain is listed in Spamhaus (rejected at MAIL FROM); Sisimai 4.25: userunknown
sisimai-rhost-aol-06-1	delivery_failure	text says malformed or unexpected name server reply for the MX lookup, a DNS failure; Sisimai: notaccept
sisimai-lhost-exim-31-1	unknown	text only lists possible causes (account or domain may not exist, blacklisted, missing DNS entries); Sisimai: hostunknown
sisimai-lhost-postfix-01-1	invalid_address	text says procmail could not create the mailbox: No such user; Sisimai: mailererror
sisimai-rfc3464-35-1	invalid_address	text says the recipient is not a registered gateway user; Sisimai: rejected
sisimai-rhost-nttdocomo-02-1	invalid_address	text says Unknown user (docomo also answers this after DATA for its recipient-side filter); Sisimai: rejected
sisimai-rhost-nttdocomo-03-1	invalid_address	text says Unknown user (docomo also answers this after DATA for its recipient-side filter); Sisimai: rejected
sisimai-lhost-mfilter-04-1	invalid_address	text says all recipient addresses rejected (5.4.1 Access denied, Exchange Online's answer for recipients it does not know); Sisimai: rejected
sisimai-lhost-postfix-49-1	delivery_failure	text is the generic 421 Service not available, closing transmission channel; nothing names the sender; Sisimai: blocked
sisimai-lhost-postfix-50-1	delivery_failure	text is the generic 421 Service not available, closing transmission channel; nothing names the sender; Sisimai: blocked
sisimai-lhost-sendmail-21-1	delivery_failure	text says Connection refused by the MX, a network failure; Sisimai: blocked
sisimai-lhost-postfix-59-1	mailbox_unavailable	text says the recipient is receiving mail at a rate that prevents more deliveries (a limit on the recipient's mailbox, not the sender); Sisimai: speeding
sisimai-lhost-gmail-03-1	sender_blocked	text says Header error (the message was refused for its headers); Sisimai: filtered
sisimai-rhost-gsuite-04-1	invalid_address	text says NXDOMAIN, the recipient domain does not exist; Sisimai: networkerror
sisimai-rhost-gsuite-05-1	invalid_address	text says NXDOMAIN, the recipient domain does not exist; Sisimai: networkerror
sisimai-rhost-gsuite-15-1	invalid_address	text says NXDOMAIN, the recipient domain does not exist; Sisimai: networkerror
sisimai-rhost-gsuite-13-1	invalid_address	text says the domain has no MX, AAAA or A records (answered NOERROR, no data); Sisimai: networkerror
sisimai-rhost-cloudflare-01-1	delivery_failure	text says 421 Upstream error, a temporary problem of the remote system; Sisimai 4.25: onhold
sisimai-rhost-zoho-04-1	sender_blocked	text says mail rejected by destination domain, a policy refusal of the message; Sisimai 4.25: onhold
sisimai-rfc3834-06-1	invalid_address	auto-reply says this inbox is no longer in use; Sisimai 4.25: vacation
sisimai-rhost-gsuite-08-1	invalid_address	text says the address couldn't be found and User unknown; Sisimai: filtered
sisimai-rhost-kddi-01-1	invalid_address	text says User unknown; Sisimai: filtered
sisimai-rhost-nttdocomo-01-1	invalid_address	text says Unknown user; Sisimai: filtered
sisimai-lhost-activehunter-02-1	invalid_address	text says User unknown in local recipient table; Sisimai: filtered
sisimai-lhost-amazonses-02-1	invalid_address	text says Unknown user; Sisimai: filtered
sisimai-lhost-amazonworkmail-02-1	invalid_address	text says User Unknown; Sisimai: filtered
sisimai-lhost-apachejames-01-1	invalid_address	text says Invalid user address, no such user here; Sisimai: filtered
sisimai-lhost-courier-02-1	invalid_address	text says Unknown user; Sisimai: filtered
sisimai-lhost-exchange2003-04-1	invalid_address	text says Recipient Not Found; Sisimai: filtered
sisimai-lhost-mailfoundry-01-1	invalid_address	text says No such user here; Sisimai: filtered
sisimai-lhost-mailru-07-1	invalid_address	text says User unknown; Sisimai: filtered
sisimai-lhost-messagingserver-03-1	invalid_address	text says User Unknown; Sisimai: filtered
sisimai-lhost-messagingserver-03-2	invalid_address	text says User Unknown; Sisimai: filtered
sisimai-lhost-messagingserver-06-1	invalid_address	text says User Unknown; Sisimai: filtered
sisimai-lhost-messagingserver-08-1	invalid_address	text says User unknown; Sisimai: filtered
sisimai-lhost-mfilter-01-1	invalid_address	text says unknown user; Sisimai: filtered
sisimai-lhost-mfilter-03-1	invalid_address	text says No such user; Sisimai: filtered
sisimai-lhost-mxlogic-03-1	invalid_address	text says unknown user; Sisimai: filtered
sisimai-lhost-office365-04-1	invalid_address	text says unknown recipient, User unknown; Sisimai: filtered
sisimai-lhost-postfix-03-1	invalid_address	text says Unknown user; Sisimai: filtered
sisimai-lhost-postfix-07-1	invalid_address	text says User unknown; Sisimai: filtered
sisimai-lhost-postfix-35-1	invalid_address	text says User unknown; Sisimai: filtered
sisimai-lhost-receivingses-01-1	invalid_address	text says Mailbox does not exist; Sisimai: filtered
sisimai-lhost-sendmail-02-2	invalid_address	text says User Unknown; Sisimai: filtered
sisimai-lhost-sendmail-19-1	invalid_address	text says Unknown user; Sisimai: filtered
sisimai-lhost-sendmail-27-1	invalid_address	text says User unknown; Sisimai: filtered
sisimai-lhost-sendmail-48-1	invalid_address	text says Recipient address rejected: User unknown; Sisimai: filtered
sisimai-lhost-surfcontrol-01-1	invalid_address	text says No such user; Sisimai: filtered
sisimai-lhost-x1-01-1	invalid_address	text says User unknown; Sisimai: filtered
sisimai-lhost-x1-03-1	invalid_address	text says User unknown; Sisimai 4.25: filtered
sisimai-lhost-x2-01-1	invalid_address	text says this user doesn't have an account; Sisimai: filtered
sisimai-lhost-x2-02-1	invalid_address	text says this user doesn't have an account; Sisimai: filtered
sisimai-lhost-x2-02-3	invalid_address	text says this user doesn't have an account; Sisimai: filtered
sisimai-lhost-yahoo-06-1	invalid_address	text says User unknown; Sisimai: filtered
sisimai-lhost-zoho-02-1	invalid_address	text says Invalid Address, User Unknown; Sisimai: filtered
sisimai-lhost-zoho-03-1	invalid_address	text says Invalid Address (mailbox unavailable); Sisimai: filtered
sisimai-rfc3464-35-3	invalid_address	text says user unknown; Sisimai: filtered
sisimai-rfc3464-42-1	invalid_address	text says the email account does not exist; Sisimai: filtered
# Provider payload selections (sender_blocked and invalid_address about half)
provider ses sisimai-lhost-amazonses-14-1 sisimai-lhost-amazonses-16-1 sisimai-rhost-microsoft-05-1 sisimai-lhost-postfix-70-1 sisimai-rhost-google-06-1 sisimai-lhost-postfix-80-1 sisimai-lhost-amazonses-21-1
provider ses sisimai-lhost-amazonses-05-1 sisimai-rhost-google-02-1 sisimai-rhost-gsuite-04-1 sisimai-lhost-amazonses-18-1 sisimai-rhost-nttdocomo-02-1
provider ses sisimai-rhost-google-07-1 sisimai-lhost-exchange2007-02-1 sisimai-lhost-qmail-06-1 sisimai-lhost-amazonses-20-1
provider ses sisimai-lhost-amazonses-17-1 sisimai-lhost-postfix-40-1 sisimai-rhost-aol-06-1 sisimai-lhost-exim-31-1
provider sendgrid sisimai-rhost-microsoft-01-1 sisimai-rhost-tencent-01-1 sisimai-lhost-postfix-39-1 sisimai-lhost-sendmail-05-1 sisimai-rhost-yahooinc-02-1 sisimai-lhost-gmail-03-1
provider sendgrid sisimai-lhost-postfix-31-1 sisimai-rhost-microsoft-03-1 sisimai-lhost-qmail-13-1 sisimai-lhost-sendmail-48-1 sisimai-lhost-postfix-05-1 sisimai-lhost-sendgrid-02-1
provider sendgrid sisimai-rhost-apple-03-1 sisimai-rhost-franceptt-05-1 sisimai-rhost-facebook-03-1 sisimai-lhost-gmail-06-1
provider sendgrid sisimai-lhost-postfix-08-1 sisimai-lhost-sendmail-39-1 sisimai-lhost-postfix-49-1 sisimai-rfc3464-43-1
provider postmark sisimai-lhost-qmail-15-1 sisimai-rhost-google-03-1 sisimai-lhost-exim-33-1 sisimai-lhost-sendmail-07-1 sisimai-lhost-qmail-19-1 sisimai-rhost-zoho-04-1
provider postmark sisimai-lhost-exchange2007-01-1 sisimai-rhost-apple-01-1 sisimai-lhost-x2-02-1 sisimai-rhost-gsuite-03-1 sisimai-rhost-yahooinc-03-1
provider postmark sisimai-lhost-postfix-52-1 sisimai-lhost-postfix-63-1 sisimai-lhost-amazonses-19-1 sisimai-rhost-apple-04-1
provider postmark sisimai-rhost-franceptt-08-1 sisimai-lhost-amazonworkmail-03-1 sisimai-lhost-x6-01-1 sisimai-rhost-franceptt-10-1 sisimai-rfc3834-01-1 sisimai-rfc3834-04-1
provider mailgun sisimai-rhost-franceptt-06-1 sisimai-lhost-exim-56-1 sisimai-lhost-postfix-09-1 sisimai-rhost-zoho-03-1 sisimai-lhost-sendmail-58-1 sisimai-rhost-godaddy-03-1 sisimai-lhost-exim-54-1
provider mailgun sisimai-rhost-zoho-01-1 sisimai-lhost-exim-05-1 sisimai-lhost-mfilter-04-1 sisimai-rhost-franceptt-02-1 sisimai-lhost-sendmail-57-1
provider mailgun sisimai-rhost-google-05-1 sisimai-lhost-dragonfly-21-1 sisimai-lhost-postfix-59-1 sisimai-lhost-messagingserver-12-1
provider mailgun sisimai-lhost-office365-08-1 sisimai-lhost-postfix-56-1 sisimai-rhost-cloudflare-01-1 sisimai-lhost-receivingses-03-1
provider resend sisimai-lhost-ezweb-08-1 sisimai-rhost-mimecast-02-1 sisimai-lhost-postfix-58-1 sisimai-lhost-receivingses-05-1 sisimai-lhost-exim-38-1 sisimai-rhost-outlook-09-1 sisimai-lhost-exim-47-1
provider resend sisimai-rhost-facebook-04-1 sisimai-lhost-office365-01-1 sisimai-lhost-postfix-36-1 sisimai-rhost-gsuite-15-1 sisimai-lhost-receivingses-01-1
provider resend sisimai-rhost-iua-01-1 sisimai-lhost-opensmtpd-17-2 sisimai-lhost-receivingses-07-1 sisimai-lhost-sendmail-35-1
provider resend sisimai-lhost-gmail-07-1 sisimai-lhost-sendmail-21-1 sisimai-rhost-gsuite-06-1 sisimai-rhost-franceptt-11-1
