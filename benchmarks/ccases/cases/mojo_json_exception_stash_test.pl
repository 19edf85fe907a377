#!/usr/bin/perl
# wynot Perl case: Mojolicious 9.30 -> 9.40, 9.32 "Fixed exceptions being added
# to the stash for formats other than HTML" (pull request #2065): when a route
# dies and the exception is rendered as JSON, the stash value "exception" was
# left unset (only the HTML exception page set it), then it is a
# Mojo::Exception.
# Exit 0: old behaviour; 1: new; 125: anything else, a module that does not
# compile included (perl exits 255 on an uncaught error, 2 when a module is
# missing: neither is a behaviour).
use strict;
use warnings;

BEGIN {
  # the pure-Perl event loop (EV is not a core module), and development mode,
  # in which a JSON exception carries the error's message
  $ENV{MOJO_REACTOR} = 'Mojo::Reactor::Poll';
  $ENV{MOJO_MODE}    = 'development';
}

sub unresolved {
  my ($why, $err) = @_;
  print STDERR $err if defined $err && length $err;
  print "UNRESOLVED: $why\n";
  exit 125;
}

my $app = eval { require Mojolicious; Mojolicious->new };
unresolved('Mojolicious does not load', $@) unless $app;

# One request through the whole application, without a server
sub request {
  my $path = shift;
  my $tx   = $app->build_tx;
  $tx->req->method('GET');
  $tx->req->url->parse($path);
  $app->handler($tx);
  return ($tx->res->code, $tx->res->body);
}

my ($seen, $ok_code, $ok_body, $code, $body);
eval {
  $app->log->level('error');
  $app->exception_format('json');
  $app->hook(after_dispatch => sub { $seen = shift->stash('exception') });
  $app->routes->get('/ok'   => sub { shift->render(json => {ok => 1}) });
  $app->routes->get('/boom' => sub { die "boom\n" });
  ($ok_code, $ok_body) = request('/ok');
  $seen = 'not dispatched';
  ($code, $body) = request('/boom');
  1;
} or unresolved('the application threw', $@);

unresolved("GET /ok answered $ok_code $ok_body") unless ($ok_code // 0) == 200 && ($ok_body // '') eq '{"ok":1}';
unresolved("GET /boom answered $code $body")    unless ($code // 0) == 500   && ($body // '') eq '{"error":"boom\n"}';

if (!defined $seen) {
  print "PASS: a JSON exception leaves the stash value exception unset\n";
  exit 0;
}
if (ref $seen && eval { $seen->isa('Mojo::Exception') } && $seen->message eq "boom\n") {
  print "FAIL: a JSON exception is in the stash as a Mojo::Exception\n";
  exit 1;
}
unresolved('the stash value exception is ' . (ref $seen || "'$seen'"));
