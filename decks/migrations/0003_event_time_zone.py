"""Events get a time zone (IANA name, UTC for existing events): the event day and the deadline's
wall-clock time are read in it; the deadline stays stored in UTC."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("decks", "0002_organisers_group"),
    ]

    operations = [
        migrations.AddField(
            model_name="event",
            name="time_zone",
            field=models.CharField(
                default="UTC",
                help_text="IANA time zone of the event (e.g. Europe/Paris): the event day and the deadline's wall-clock time are read in it.",
                max_length=64,
            ),
        ),
        migrations.AlterField(
            model_name="event",
            name="decklist_deadline",
            field=models.DateTimeField(
                help_text="Stored in UTC; pages show it in the event's time zone."
            ),
        ),
    ]
