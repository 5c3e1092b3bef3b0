"""Spectators (issue 35 item 4): who may watch a friend table and with what delay, when each
action was stored, how many watch, and each seat's "show my cards after the game" choice.

The spectator token is unique: it is added empty, each existing table is given its own, then
made unique (the pattern Django's docs give for a unique field with a callable default)."""

from django.db import migrations, models

import tables.models


def give_tokens(apps, schema_editor):
    FriendTable = apps.get_model("tables", "FriendTable")
    for table in FriendTable.objects.filter(spectator_token__isnull=True):
        table.spectator_token = tables.models.new_invite_token()
        table.save(update_fields=["spectator_token"])


class Migration(migrations.Migration):
    dependencies = [
        ("tables", "0003_clocks"),
    ]

    operations = [
        migrations.AddField(
            model_name="friendtable",
            name="spectators",
            field=models.CharField(
                choices=[
                    ("none", "No spectators"),
                    ("link", "Spectators with the spectator link"),
                    ("public", "Anyone may watch"),
                ],
                default="none",
                max_length=6,
            ),
        ),
        migrations.AddField(
            model_name="friendtable",
            name="spectator_token",
            field=models.CharField(max_length=32, null=True),
        ),
        migrations.RunPython(give_tokens, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="friendtable",
            name="spectator_token",
            field=models.CharField(
                default=tables.models.new_invite_token, max_length=32, unique=True
            ),
        ),
        migrations.AddField(
            model_name="friendtable",
            name="spectator_delay",
            field=models.PositiveIntegerField(default=0),
        ),
        migrations.AddField(
            model_name="friendtable",
            name="action_times",
            field=models.JSONField(default=list),
        ),
        migrations.AddField(
            model_name="friendtable",
            name="watching",
            field=models.PositiveIntegerField(default=0),
        ),
        migrations.AddField(
            model_name="friendseat",
            name="reveal_after",
            field=models.BooleanField(default=False),
        ),
    ]
